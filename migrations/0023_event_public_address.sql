-- The event's public address: the origin phones in the hall open Mentat at, printed in the QR
-- codes (find my seat, the standings). Empty means none set: MENTAT_PUBLIC_URL, or the request's
-- own address, is used instead. The application checks the shape (scheme, host, port).
ALTER TABLE events ADD COLUMN public_url TEXT NOT NULL DEFAULT ''
    CHECK (length(public_url) <= 200);

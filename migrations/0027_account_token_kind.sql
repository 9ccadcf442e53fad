-- Account tokens: a person's own API token, for scripts that act for them in every event they
-- hold a role in, and that may create events when the person is a site administrator (the
-- JSON API's `POST /api/v1/events`). A new kind of the one tokens table; its rows follow in
-- 0028 (a new enum value cannot be used in the transaction that adds it).
ALTER TYPE token_kind ADD VALUE IF NOT EXISTS 'account';

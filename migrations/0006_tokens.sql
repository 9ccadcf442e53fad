-- Tokens: one mechanism for every secret that grants something in one event without a password.
--
--   api           an organiser's script calls the JSON API (reusable until revoked or expired);
--   staff_invite  a one-use link that gives its taker a staff role (issue 18);
--   player_claim  a code on a player's slip, or a link, that ties a registration to the phone's
--                 account (issue 18).
--
-- The secret itself is shown once, when it is made, and never stored: only its SHA-256. A
-- token is looked up by that hash, so the table never holds anything that signs in.

CREATE TYPE token_kind AS ENUM ('api', 'staff_invite', 'player_claim');

CREATE TABLE tokens (
    id              BIGSERIAL PRIMARY KEY,
    kind            token_kind NOT NULL,
    event_id        BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    -- What the organiser called it ("results bot", "invite for Sam"), for the lists.
    label           TEXT NOT NULL CHECK (length(label) BETWEEN 1 AND 80),
    -- What it grants: a role in the event (api, staff_invite) or one player's registration
    -- (player_claim), never both.
    role            event_role,
    player_id       BIGINT REFERENCES players (id) ON DELETE CASCADE,
    secret_sha256   BYTEA NOT NULL UNIQUE CHECK (length(secret_sha256) = 32),
    -- The secret's first characters, so a list can say which token is which.
    hint            TEXT NOT NULL,
    single_use      BOOLEAN NOT NULL,
    expires_at      TIMESTAMPTZ,
    created_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- A one-use token is spent by its first use; a reusable one counts its uses.
    used_count      BIGINT NOT NULL DEFAULT 0,
    last_used_at    TIMESTAMPTZ,
    used_by         BIGINT REFERENCES users (id) ON DELETE SET NULL,
    revoked_at      TIMESTAMPTZ,
    revoked_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT tokens_grant CHECK (
        (kind = 'player_claim' AND player_id IS NOT NULL AND role IS NULL)
        OR (kind <> 'player_claim' AND role IS NOT NULL AND player_id IS NULL)
    ),
    -- Invites and claims are links handed to one person: they are spent once and expire.
    CONSTRAINT tokens_once CHECK (kind = 'api' OR (single_use AND expires_at IS NOT NULL)),
    CONSTRAINT tokens_spent CHECK (NOT single_use OR used_count <= 1)
);
CREATE INDEX tokens_event ON tokens (event_id, kind, created_at DESC);

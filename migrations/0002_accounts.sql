-- Accounts, events and who may do what in each event (roles are per event).

CREATE TABLE users (
    id                  BIGSERIAL PRIMARY KEY,
    username            TEXT NOT NULL,
    email               TEXT,
    -- An argon2id PHC string. Never selected except to verify a password.
    password_hash       TEXT NOT NULL,
    is_admin            BOOLEAN NOT NULL DEFAULT false,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    password_changed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- Sign-in accepts either, in any case, so both are unique without regard to case.
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE events (
    id          BIGSERIAL PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    created_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TYPE event_role AS ENUM ('organiser', 'head_judge', 'judge', 'player');

-- One role per person per event; granting another role replaces it.
CREATE TABLE event_roles (
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        event_role NOT NULL,
    granted_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    granted_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, user_id)
);
CREATE INDEX event_roles_user ON event_roles (user_id);

-- Failed sign-ins, keyed by account ('account:<login>') and by address ('addr:<ip>'), for the
-- back-off. Kept in the database so every instance behind a load balancer sees the same count.
CREATE TABLE sign_in_failures (
    key TEXT NOT NULL,
    at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_key_at ON sign_in_failures (key, at DESC);

ALTER TABLE audit_log
    ADD COLUMN event_id BIGINT REFERENCES events (id) ON DELETE CASCADE,
    ADD COLUMN actor_id BIGINT REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX audit_log_event ON audit_log (event_id, at DESC);

-- The session store of tower-sessions-sqlx-store, created here so every database (tests
-- included) has it without a second migration mechanism.
CREATE SCHEMA tower_sessions;
CREATE TABLE tower_sessions.session (
    id          TEXT PRIMARY KEY NOT NULL,
    data        BYTEA NOT NULL,
    expiry_date TIMESTAMPTZ NOT NULL
);
CREATE INDEX session_expiry ON tower_sessions.session (expiry_date);

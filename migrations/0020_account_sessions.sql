-- Which signed-in sessions belong to which account, so "sign out everywhere" can delete every
-- one of them from the session store (whose rows hold only an opaque, encoded record). A row is
-- written when a session signs in; the store's own row is the session itself, so a row here
-- whose session is gone (signed out, expired) is harmless and is tidied at the next sign-in.
CREATE TABLE account_sessions (
    session_id  TEXT PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX account_sessions_user ON account_sessions (user_id);

-- The name shown for a person (header, audit sentences); the user name stays what they sign
-- in with. Empty means "use the user name".
ALTER TABLE users ADD COLUMN display_name TEXT;

-- Game logs: the game's moves in Mentat's notation (DGN, docs/notation.md), one row per saved
-- revision of a table's log. Nothing is updated in place: the highest revision is the log, every
-- earlier one stays with who saved it, when and why.
CREATE TABLE game_logs (
    id          BIGSERIAL PRIMARY KEY,
    table_id    BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    revision    INT NOT NULL CHECK (revision >= 1),
    -- The whole log as typed, pasted or uploaded (a ten-turn game is about 20 KB).
    body        TEXT NOT NULL CHECK (octet_length(body) <= 1000000),
    -- Why an earlier revision's lines changed (a log only continued needs none).
    reason      TEXT,
    -- Where the text came from: typed on the page, or the file of a batch upload.
    source      TEXT,
    created_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT game_logs_revision UNIQUE (table_id, revision)
);

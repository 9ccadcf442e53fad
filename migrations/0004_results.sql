-- Results: win attempts, game reports with their revisions and confirmations, and the finals.
--
-- Nothing here is ever updated in place: a correction is a new revision row that names who made
-- it, when and why, and the latest revision is the one that counts.

-- The account a player signs in with, so they can confirm their own reports on their phone.
ALTER TABLE players ADD COLUMN user_id BIGINT REFERENCES users (id) ON DELETE SET NULL;
CREATE UNIQUE INDEX players_event_user ON players (event_id, user_id) WHERE user_id IS NOT NULL;

-- Win attempts (4.01.04, ruling 6): what a judge recorded at one turn's Battle phase. Each save
-- is a new revision of that turn; the highest revision is the record.
CREATE TABLE win_attempts (
    id          BIGSERIAL PRIMARY KEY,
    table_id    BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    turn        SMALLINT NOT NULL CHECK (turn BETWEEN 1 AND 10),
    revision    INT NOT NULL CHECK (revision >= 1),
    -- The players who made a win attempt this turn (ruling 6: at most one each per turn).
    players     BIGINT[] NOT NULL,
    -- Per player id (as text): the strongholds the judge saw as evidence, as board codes.
    evidence    JSONB NOT NULL DEFAULT '{}'::jsonb,
    -- Why an earlier record of this turn was changed; NULL on the first.
    reason      TEXT,
    recorded_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT win_attempts_revision UNIQUE (table_id, turn, revision)
);

-- Game reports (4.01.02, 4.01.07): one row per revision of a table's report.
CREATE TABLE game_reports (
    id           BIGSERIAL PRIMARY KEY,
    table_id     BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    revision     INT NOT NULL CHECK (revision >= 1),
    ended        TEXT NOT NULL CHECK (ended IN ('win', 'time', 'turns')),
    last_turn    SMALLINT NOT NULL CHECK (last_turn BETWEEN 1 AND 10),
    -- Per seat: player id, faction, ally, result and the end values of 4.01.11 (win attempts
    -- excepted: they are copied from the win-attempt record when the revision is saved).
    seats        JSONB NOT NULL,
    -- The player the head judge drew when an adjudication tie survives every category (ruling 9).
    judge_draw   BIGINT REFERENCES players (id),
    -- Why this revision replaced a final one; NULL otherwise.
    reason       TEXT,
    created_by   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Final: every seated player confirmed it, or the head judge finalised it (4.01.05).
    final_at     TIMESTAMPTZ,
    finalised_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT game_reports_revision UNIQUE (table_id, revision)
);
CREATE INDEX game_reports_final ON game_reports (table_id, revision DESC) WHERE final_at IS NOT NULL;

-- A seated player's answer to one revision: agree, or dispute with a note for the head judge.
CREATE TABLE report_confirmations (
    report_id   BIGINT NOT NULL REFERENCES game_reports (id) ON DELETE CASCADE,
    player_id   BIGINT NOT NULL REFERENCES players (id),
    agrees      BOOLEAN NOT NULL,
    note        TEXT,
    -- The player themselves, or the judge who confirmed for them.
    by_user     BIGINT REFERENCES users (id) ON DELETE SET NULL,
    at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (report_id, player_id)
);

-- Qualifying closed (the finalists are fixed) and how a tie across the cut line was drawn.
CREATE TABLE finals (
    event_id    BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    closed_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    closed_by   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    -- The finalists in standings order when qualifying closed.
    finalists   BIGINT[] NOT NULL,
    -- The players tied across the cut line and the seats left for them.
    tied        BIGINT[] NOT NULL DEFAULT '{}',
    open_seats  INT NOT NULL DEFAULT 0,
    -- The seeded draw that settled the tie (ruling 4, ruling 11): seed and who it picked.
    draw_seed   BIGINT,
    drawn       BIGINT[],
    drawn_by    BIGINT REFERENCES users (id) ON DELETE SET NULL,
    drawn_at    TIMESTAMPTZ
);

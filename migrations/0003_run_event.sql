-- Running an event: its settings, players, rounds, tables, seats and table clocks.
--
-- Rows that a stale page could overwrite carry a `version`, bumped by every change; a write names
-- the version it was based on (UPDATE … WHERE version = $n) and a mismatch is answered "this
-- changed, reload" instead of silently overwriting someone else's change.

ALTER TABLE events
    ADD COLUMN starts_on DATE,
    ADD COLUMN ends_on DATE,
    ADD COLUMN venue TEXT NOT NULL DEFAULT '',
    ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'gc-2.13.3'
        CONSTRAINT events_ruleset CHECK (ruleset IN ('gc-2.13.3', 'full')),
    -- tournament::RulingOptions as JSON (finals seats included); missing keys read as defaults.
    ADD COLUMN options JSONB NOT NULL DEFAULT '{}'::jsonb,
    ADD COLUMN qualifying_rounds INT NOT NULL DEFAULT 4
        CONSTRAINT events_qualifying_rounds CHECK (qualifying_rounds BETWEEN 1 AND 20),
    ADD COLUMN version INT NOT NULL DEFAULT 1,
    ADD CONSTRAINT events_dates CHECK (ends_on IS NULL OR starts_on IS NULL OR ends_on >= starts_on);

CREATE TABLE players (
    id                  BIGSERIAL PRIMARY KEY,
    event_id            BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    -- tournament::PlayerName: trimmed, compared exactly, the identity draws and reports use.
    name                TEXT NOT NULL,
    email               TEXT,
    club                TEXT,
    -- Seated only to fill a table (ruling 1); never drawn into a later round unless named again.
    alternate           BOOLEAN NOT NULL DEFAULT false,
    checked_in          BOOLEAN NOT NULL DEFAULT false,
    -- Rounds already drawn when the player entered: more than 0 is a late entry.
    entered_after_round INT NOT NULL DEFAULT 0,
    -- Rounds drawn when the player dropped; NULL while playing. Past seats stay as they were.
    dropped_after_round INT,
    dropped_at          TIMESTAMPTZ,
    version             INT NOT NULL DEFAULT 1,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT players_event_name UNIQUE (event_id, name)
);
CREATE UNIQUE INDEX players_event_email ON players (event_id, lower(email)) WHERE email IS NOT NULL;

CREATE TABLE rounds (
    id              BIGSERIAL PRIMARY KEY,
    event_id        BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    number          INT NOT NULL CHECK (number >= 1),
    -- The draw's seed (ruling 4): with the players, the ruleset, the options and the earlier
    -- rounds it reproduces the draw exactly.
    seed            BIGINT NOT NULL CHECK (seed >= 0),
    ruleset         TEXT NOT NULL,
    -- The ruling options the draw used (table_fallback holds the head judge's ruling-1 choice).
    options         JSONB NOT NULL,
    quality         JSONB NOT NULL,
    -- Why the round was drawn although the previous one had games without a final report.
    override_reason TEXT,
    drawn_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    drawn_by        BIGINT REFERENCES users (id) ON DELETE SET NULL,
    -- Play began: from then on seats are final (no redraw, no swap).
    started_at      TIMESTAMPTZ,
    version         INT NOT NULL DEFAULT 1,
    -- Two head judges starting the same round at once: exactly one insert succeeds.
    CONSTRAINT rounds_event_number UNIQUE (event_id, number)
);

CREATE TABLE round_byes (
    round_id    BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    player_id   BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (round_id, player_id)
);

-- "tables" would shadow the SQL keyword in every query; these are the game tables of a round.
CREATE TABLE game_tables (
    id                  BIGSERIAL PRIMARY KEY,
    round_id            BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    number              INT NOT NULL CHECK (number >= 1),
    -- The clock (4.01.08) as instants; tournament::clock computes what it shows.
    clock_started_at    TIMESTAMPTZ,
    clock_paused_at     TIMESTAMPTZ,
    clock_paused_ms     BIGINT NOT NULL DEFAULT 0,
    clock_extension_ms  BIGINT NOT NULL DEFAULT 0,
    -- The table's final Game Report is in.
    reported_at         TIMESTAMPTZ,
    version             INT NOT NULL DEFAULT 1,
    CONSTRAINT game_tables_round_number UNIQUE (round_id, number),
    -- Lets seats name their round and table together, so a seat cannot be in another round.
    CONSTRAINT game_tables_id_round UNIQUE (id, round_id)
);

CREATE TABLE seats (
    table_id    BIGINT NOT NULL,
    round_id    BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    -- The prediction card drawn (0.07) and the player circle (ruling 2).
    seat        SMALLINT NOT NULL CHECK (seat BETWEEN 1 AND 6),
    circle      SMALLINT NOT NULL CHECK (circle BETWEEN 0 AND 5),
    player_id   BIGINT NOT NULL REFERENCES players (id),
    -- gc-2.13.3: the faction dealt. full: NULL until the player's pick is recorded.
    faction     TEXT,
    -- full: the two alliance cards offered (classic, expansion).
    offered     TEXT[],
    PRIMARY KEY (table_id, seat),
    FOREIGN KEY (table_id, round_id) REFERENCES game_tables (id, round_id) ON DELETE CASCADE,
    -- Checked at the end of each statement, so one UPDATE can swap two players' seats.
    CONSTRAINT seats_player_once UNIQUE (round_id, player_id) DEFERRABLE INITIALLY IMMEDIATE
);
CREATE INDEX seats_player ON seats (player_id);

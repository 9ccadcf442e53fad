-- Disputes reach a judge: a player's dispute of a report (a `report_confirmations` row that
-- disagrees) is taken by a judge, whom the others see, and resolved with a note.
--
-- Nothing is updated in place: each step is a new row naming who, when and what. A dispute's
-- state is its latest step after the player's latest answer; a player who disputes again after
-- a resolution opens it anew.
CREATE TABLE dispute_steps (
    id          BIGSERIAL PRIMARY KEY,
    report_id   BIGINT NOT NULL REFERENCES game_reports (id) ON DELETE CASCADE,
    player_id   BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    step        TEXT NOT NULL CHECK (step IN ('taken', 'resolved')),
    -- What the judge decided, for the player and the record; required on a resolution.
    note        TEXT CHECK (step <> 'resolved' OR note IS NOT NULL),
    -- Whether the resolution made the disputed revision final (the head judge, 4.01.05).
    finalised   BOOLEAN NOT NULL DEFAULT false,
    by_user     BIGINT REFERENCES users (id) ON DELETE SET NULL,
    at          TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX dispute_steps_dispute ON dispute_steps (report_id, player_id, id DESC);

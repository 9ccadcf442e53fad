-- The final table (ruling 13): a round of its own after qualifying, run like any other (clock,
-- report, adjudication, disputes) but never counted in the qualifying standings. One per event.
ALTER TABLE rounds ADD COLUMN final BOOLEAN NOT NULL DEFAULT false;
CREATE UNIQUE INDEX rounds_one_final ON rounds (event_id) WHERE final;

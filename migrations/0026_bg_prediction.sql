-- The Bene Gesserit's prediction (2.02.03) on a game report: the faction predicted to win by a
-- stronghold victory and the turn, as the judge records them at the end of the game, e.g.
-- {"faction": "AT", "turn": 6}. NULL when not recorded; a Bene Gesserit Prediction win needs it.
ALTER TABLE game_reports ADD COLUMN prediction JSONB;

-- A player's sort key (issue 27). The wall's pairings print every name as the player wrote it,
-- sorted with accents and capitals ignored; where that order is not the one wanted ("van Dijk"
-- under D, a name in another script under its transliteration), an organiser sets the key the
-- player is sorted by instead. Empty means the name itself.
ALTER TABLE players ADD COLUMN sort_as TEXT
    CHECK (sort_as IS NULL OR (length(sort_as) BETWEEN 1 AND 100));

-- One code table for strongholds across Mentat: the DGN codes of docs/notation.md (ARK CAR TUK
-- TAB HAB SW). Win-attempt evidence was written with the board codes AK CA TS ST HS; this
-- rewrites those codes in place. It changes how a stronghold is spelled, not what was recorded,
-- so no revision is made.
UPDATE win_attempts w
SET evidence = (
    SELECT coalesce(jsonb_object_agg(e.player, (
        SELECT coalesce(jsonb_agg(CASE code
                    WHEN 'AK' THEN 'ARK'
                    WHEN 'CA' THEN 'CAR'
                    WHEN 'TS' THEN 'TUK'
                    WHEN 'ST' THEN 'TAB'
                    WHEN 'HS' THEN 'HAB'
                    ELSE code
                END ORDER BY ord), '[]'::jsonb)
        FROM jsonb_array_elements_text(e.codes) WITH ORDINALITY AS c(code, ord)
    )), '{}'::jsonb)
    FROM jsonb_each(w.evidence) AS e(player, codes)
)
WHERE w.evidence <> '{}'::jsonb;

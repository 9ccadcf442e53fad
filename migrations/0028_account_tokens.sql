-- An account token belongs to no event and grants no role of its own: it acts as the account
-- that made it (`created_by`), never beyond what that account may do at the time of use.
ALTER TABLE tokens ALTER COLUMN event_id DROP NOT NULL;
ALTER TABLE tokens DROP CONSTRAINT tokens_grant;
ALTER TABLE tokens ADD CONSTRAINT tokens_grant CHECK (
    (kind = 'player_claim' AND player_id IS NOT NULL AND role IS NULL AND event_id IS NOT NULL)
    OR (kind IN ('api', 'staff_invite') AND role IS NOT NULL AND player_id IS NULL
        AND event_id IS NOT NULL)
    OR (kind = 'account' AND role IS NULL AND player_id IS NULL AND event_id IS NULL
        AND NOT single_use)
);
CREATE INDEX tokens_account ON tokens (created_by, created_at DESC) WHERE kind = 'account';

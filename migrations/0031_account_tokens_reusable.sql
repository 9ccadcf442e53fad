-- An account token is reusable until revoked, like an API token: 0028 allowed the kind but left
-- `tokens_once` (from 0006) saying that every kind but `api` is single-use with an expiry, so
-- `mentat token add` was refused by the database.
ALTER TABLE tokens DROP CONSTRAINT tokens_once;
ALTER TABLE tokens ADD CONSTRAINT tokens_once CHECK (
    kind IN ('api', 'account') OR (single_use AND expires_at IS NOT NULL)
);

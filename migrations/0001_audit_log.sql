-- Who did what, and when: every state change a judge may need to reconstruct later
-- (sign-ins, role changes, redraws, seat swaps, report corrections) appends a row here.
CREATE TABLE audit_log (
    id          BIGSERIAL PRIMARY KEY,
    at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    actor       TEXT,
    action      TEXT NOT NULL,
    subject     TEXT,
    detail      JSONB NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_at ON audit_log (at DESC);

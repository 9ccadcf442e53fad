-- A restored event remembers where it came from: the address of the event its backup was
-- written from (the first one, for a copy of a copy) and when it was restored. An event and
-- its copies share `created_at` (a backup keeps it) and that first address, so the statistics
-- across events count each event once however many copies of it a server holds.
ALTER TABLE events
    ADD COLUMN restored_from TEXT,
    ADD COLUMN restored_at TIMESTAMPTZ;

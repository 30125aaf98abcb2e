-- The sample's own table: the ledger (the lock table, sample_locks, and the fence in front of the ledger,
-- sample_fencing_tokens, are created by the starter). All carry the sample_ prefix, so the sample shares a database
-- with other users without colliding.
CREATE TABLE IF NOT EXISTS sample_ledger_entries (
    slot    VARCHAR(32) NOT NULL,
    replica VARCHAR(64) NOT NULL,
    token   BIGINT      NOT NULL
);

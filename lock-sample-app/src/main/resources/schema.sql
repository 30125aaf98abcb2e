-- The sample's own tables: the ledger and the fence in front of it (the lock table, sample_locks, is created by the
-- starter). All carry the sample_ prefix, so the sample shares a database with other users without colliding.
CREATE TABLE IF NOT EXISTS sample_fencing_tokens (
    name       VARCHAR(255) NOT NULL PRIMARY KEY,
    last_token BIGINT       NOT NULL
);

CREATE TABLE IF NOT EXISTS sample_ledger_entries (
    slot    VARCHAR(32) NOT NULL,
    replica VARCHAR(64) NOT NULL,
    token   BIGINT      NOT NULL
);

-- The sample's own tables: the ledger and the fence in front of it (the lock table is created by the starter).
CREATE TABLE IF NOT EXISTS fencing_tokens (
    name       VARCHAR(255) NOT NULL PRIMARY KEY,
    last_token BIGINT       NOT NULL
);

CREATE TABLE IF NOT EXISTS ledger_entries (
    slot    VARCHAR(32) NOT NULL,
    replica VARCHAR(64) NOT NULL,
    token   BIGINT      NOT NULL
);

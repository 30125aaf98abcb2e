-- Fencing table for MariaDB 10.6 or later: the highest fencing token each protected resource has accepted.
-- FencingGuard advances a row with one INSERT … ON DUPLICATE KEY UPDATE … RETURNING.
-- The binary no-pad collation keeps 'job' and 'job ' (or 'Job') apart, as in the lock table.
CREATE TABLE IF NOT EXISTS fencing_tokens (
    name       VARCHAR(255) NOT NULL PRIMARY KEY,
    last_token BIGINT       NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

-- Lock table for MariaDB 10.6 or later. Timestamps are DATETIME(6) holding UTC, compared with UTC_TIMESTAMP(6).
-- Fencing tokens come from the sequence, so they stay monotonic across release, expiry, row clean-up and restarts.
-- The binary no-pad collation keeps 'job' and 'job ' (or 'Job') apart.
CREATE SEQUENCE IF NOT EXISTS distributed_locks_token_seq;

CREATE TABLE IF NOT EXISTS distributed_locks (
    resource    VARCHAR(255) NOT NULL PRIMARY KEY,
    owner       VARCHAR(255) NOT NULL,
    token       BIGINT       NOT NULL,
    acquired_at DATETIME(6)  NOT NULL,
    expires_at  DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

-- Lock table for PostgreSQL 12 or later. Timestamps are timestamptz, compared with clock_timestamp().
-- Fencing tokens come from the sequence, so they stay monotonic across release, expiry, row clean-up and restarts.
CREATE SEQUENCE IF NOT EXISTS distributed_locks_token_seq;

CREATE TABLE IF NOT EXISTS distributed_locks (
    resource    VARCHAR(255)   NOT NULL PRIMARY KEY,
    owner       VARCHAR(255)   NOT NULL,
    token       BIGINT         NOT NULL,
    acquired_at TIMESTAMPTZ(6) NOT NULL,
    expires_at  TIMESTAMPTZ(6) NOT NULL
);

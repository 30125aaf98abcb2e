-- Lock table for H2 2.x. Timestamps carry their zone, compared with CURRENT_TIMESTAMP(6).
-- Fencing tokens come from the sequence, so they stay monotonic across release, expiry and row clean-up.
CREATE SEQUENCE IF NOT EXISTS distributed_locks_token_seq;

CREATE TABLE IF NOT EXISTS distributed_locks (
    resource    VARCHAR(255)                NOT NULL PRIMARY KEY,
    owner       VARCHAR(255)                NOT NULL,
    token       BIGINT                      NOT NULL,
    acquired_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    expires_at  TIMESTAMP(6) WITH TIME ZONE NOT NULL
);

-- Lock table for MariaDB 10.6 or later. Timestamps are DATETIME(6) holding UTC, compared with UTC_TIMESTAMP(6).
-- Fencing tokens come from the sequence, so they stay monotonic across release, expiry, row clean-up and restarts.
-- The binary no-pad collation keeps 'job' and 'job ' (or 'Job') apart.
CREATE SEQUENCE IF NOT EXISTS distributed_locks_token_seq;

CREATE TABLE IF NOT EXISTS distributed_locks (
    resource    VARCHAR(255) NOT NULL PRIMARY KEY,
    owner       VARCHAR(255) NOT NULL,
    token       BIGINT       NOT NULL,
    acquired_at DATETIME(6)  NOT NULL,
    expires_at  DATETIME(6)  NOT NULL,
    slot_at     BIGINT,
    slot_token  BIGINT,
    slot_state  CHAR(1),
    slot_runs   INT NOT NULL DEFAULT 0
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

-- Scheduled slots: each job's lock row carries its last claimed slot (slot_at, epoch milliseconds), the token that
-- claimed it, whether its run finished (slot_state R or D) and how many runs it had; this table keeps the runs.
CREATE TABLE IF NOT EXISTS distributed_locks_slots (
    job         VARCHAR(255) NOT NULL,
    slot_at     BIGINT       NOT NULL,
    run_no      INT          NOT NULL,
    owner       VARCHAR(255) NOT NULL,
    token       BIGINT       NOT NULL,
    started_at  DATETIME(6) NOT NULL,
    finished_at DATETIME(6),
    outcome     VARCHAR(16)  NOT NULL,
    PRIMARY KEY (job, slot_at, run_no)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

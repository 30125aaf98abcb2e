-- Adds the scheduled-slot columns and table to a lock table made by distlock 0.1 (postgresql); safe to run again.
ALTER TABLE distributed_locks ADD COLUMN IF NOT EXISTS slot_at BIGINT;
ALTER TABLE distributed_locks ADD COLUMN IF NOT EXISTS slot_token BIGINT;
ALTER TABLE distributed_locks ADD COLUMN IF NOT EXISTS slot_state CHAR(1);
ALTER TABLE distributed_locks ADD COLUMN IF NOT EXISTS slot_runs INT NOT NULL DEFAULT 0;

-- Scheduled slots: each job's lock row carries its last claimed slot (slot_at, epoch milliseconds), the token that
-- claimed it, whether its run finished (slot_state R or D) and how many runs it had; this table keeps the runs.
CREATE TABLE IF NOT EXISTS distributed_locks_slots (
    job         VARCHAR(255) NOT NULL,
    slot_at     BIGINT       NOT NULL,
    run_no      INT          NOT NULL,
    owner       VARCHAR(255) NOT NULL,
    token       BIGINT       NOT NULL,
    started_at  TIMESTAMPTZ(6) NOT NULL,
    finished_at TIMESTAMPTZ(6),
    outcome     VARCHAR(16)  NOT NULL,
    PRIMARY KEY (job, slot_at, run_no)
);

-- Adds the scheduled-slot columns to a lock table made by distlock 0.1 (H2); safe to run again.
-- Run schema-h2.sql after it: it creates the slot table, and leaves what exists alone.
ALTER TABLE distributed_locks ADD COLUMN IF NOT EXISTS slot_at BIGINT;
ALTER TABLE distributed_locks ADD COLUMN IF NOT EXISTS slot_token BIGINT;
ALTER TABLE distributed_locks ADD COLUMN IF NOT EXISTS slot_state CHAR(1);
ALTER TABLE distributed_locks ADD COLUMN IF NOT EXISTS slot_runs INT NOT NULL DEFAULT 0;

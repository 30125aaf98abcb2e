-- Fencing table for PostgreSQL 12 or later: the highest fencing token each protected resource has accepted.
-- FencingGuard advances a row with one INSERT … ON CONFLICT DO UPDATE … WHERE last_token <= the new token.
CREATE TABLE IF NOT EXISTS fencing_tokens (
    name       VARCHAR(255) NOT NULL PRIMARY KEY,
    last_token BIGINT       NOT NULL
);

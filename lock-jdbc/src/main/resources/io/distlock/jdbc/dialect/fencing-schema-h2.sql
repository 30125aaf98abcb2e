-- Fencing table for H2 2.x: the highest fencing token each protected resource has accepted.
-- FencingGuard advances a row with one MERGE … USING … WHEN MATCHED AND last_token <= the new token.
CREATE TABLE IF NOT EXISTS fencing_tokens (
    name       VARCHAR(255) NOT NULL PRIMARY KEY,
    last_token BIGINT       NOT NULL
);

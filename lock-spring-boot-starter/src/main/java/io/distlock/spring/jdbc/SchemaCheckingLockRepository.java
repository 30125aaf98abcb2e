package io.distlock.spring.jdbc;

import io.distlock.core.DelegatingLockRepository;
import io.distlock.core.LockRepository;
import io.distlock.core.SchemaVerification;
import io.distlock.jdbc.JdbcLockRepository;

/**
 * The lock repository of {@code distributed-lock.startup-check=lazy}: checks the lock table before its first lock
 * operation instead of at start-up, and again before each one until a check succeeds, so that an application started
 * while its database was down fails lock calls with the real cause (the database does not answer, or the table is
 * missing and how to create it) rather than with a bare SQL error. Slots, batch renewals and forced releases follow a
 * lock operation, which checked the table first; the release feed needs no table.
 */
final class SchemaCheckingLockRepository extends DelegatingLockRepository implements SchemaVerification {

    private final JdbcLockRepository jdbc;

    private volatile boolean verified;

    SchemaCheckingLockRepository(JdbcLockRepository delegate) {
        super(delegate);
        this.jdbc = delegate;
    }

    /** @return whether a check of the lock table has succeeded since start */
    boolean isVerified() {
        return verified;
    }

    @Override
    public void verifySchema() {
        jdbc.verifySchema();
        verified = true;
    }

    @Override
    protected LockRepository target() {
        if (!verified) {
            verifySchema();
        }
        return jdbc;
    }
}

package io.distlock.spring.jdbc;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because the database behind the lock table could not be reached.
 */
class LockDatabaseUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<LockDatabaseUnreachableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LockDatabaseUnreachableException cause) {
        String database = cause.url() != null ? "the database at " + cause.url() : "the database";
        return new FailureAnalysis(cause.description(), "Make sure that " + database + " is running and reachable "
                + "with the configured credentials (spring.datasource.url, spring.datasource.username, "
                + "spring.datasource.password). " + cause.action() + ".", cause);
    }
}

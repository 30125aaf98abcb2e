package io.distlock.spring.jdbc;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because {@code distributed-lock.dialect} names no supported dialect.
 */
class UnknownLockDialectFailureAnalyzer extends AbstractFailureAnalyzer<UnknownLockDialectException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnknownLockDialectException cause) {
        return new FailureAnalysis(cause.getMessage(), "Set distributed-lock.dialect to h2, postgresql or mariadb, "
                + "or remove it to have the dialect detected from the database. Other databases, MySQL included, are "
                + "not supported.", cause);
    }
}

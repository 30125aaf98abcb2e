package io.distlock.spring.jdbc;

import io.distlock.jdbc.LockTableMissingException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because the lock table, one of its columns or its token sequence is missing.
 */
class LockTableMissingFailureAnalyzer extends AbstractFailureAnalyzer<LockTableMissingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LockTableMissingException cause) {
        return new FailureAnalysis(cause.getMessage(), "Create the lock table and its token sequence before the "
                + "application starts: set distributed-lock.jdbc.initialize-schema=always to have the starter run the "
                + "schema script at start-up, or run the script named above from the lock-jdbc jar yourself (or with "
                + "your migration tool). If the table exists under another name or in another schema, set "
                + "distributed-lock.table-name to it.", cause);
    }
}

package io.distlock.spring.store;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because the store {@code distributed-lock.store} chose could not be set up.
 */
class LockStoreMissingFailureAnalyzer extends AbstractFailureAnalyzer<LockStoreMissingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LockStoreMissingException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}

package io.distlock.spring.support;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ReactiveAdapter;

/**
 * The asynchronous result of a guarded method ({@link AsynchronousResults#of}): how its work is guarded until it
 * completes, or why it cannot be.
 *
 * @param kind how the result is guarded
 * @param type the result's type, named for messages
 * @param adapter the adapter of a {@link Kind#REACTIVE} result
 * @param multiValue whether the result gives many values (a {@code Flux}, a {@code Flow}) rather than at most one
 * @param unsupported why the result cannot be guarded, exactly when {@code kind} is {@link Kind#UNSUPPORTED}
 */
public record AsynchronousResult(Kind kind, String type, @Nullable ReactiveAdapter adapter, boolean multiValue,
        @Nullable String unsupported) {

    public AsynchronousResult {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(type, "type");
        if ((kind == Kind.UNSUPPORTED) != (unsupported != null)) {
            throw new IllegalArgumentException("A reason comes with UNSUPPORTED and only with it");
        }
        if ((kind == Kind.REACTIVE) != (adapter != null)) {
            throw new IllegalArgumentException("An adapter comes with REACTIVE and only with it");
        }
    }

    /**
     * Whether the result can complete without a value, as a skipped call or a slot that does not run here does:
     * every kind but an adapted type that requires one (RxJava's {@code Single}).
     *
     * @return {@code false} only for an adapted type that cannot be empty
     */
    public boolean canCompleteEmpty() {
        return adapter == null || adapter.supportsEmpty();
    }

    static AsynchronousResult unsupported(String type, String reason) {
        return new AsynchronousResult(Kind.UNSUPPORTED, type, null, false, reason);
    }

    /** How an asynchronous result is guarded. */
    public enum Kind {

        /** A {@code CompletableFuture} or {@code CompletionStage}: the lock is released when it completes. */
        COMPLETION_STAGE,

        /** A deferred reactive type: the lock is taken on subscription and released when the work ends. */
        REACTIVE,

        /** A Kotlin {@code suspend} function, which Spring AOP runs as a {@code Mono} (a {@code Flux} for a Flow). */
        SUSPENDING,

        /** Asynchronous, but its work cannot be guarded: refused at start-up. */
        UNSUPPORTED
    }
}

package io.distlock.spring.actuate;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.core.SchemaVerification;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;

/**
 * What the {@code distributedLock} health indicator checks, apart from the health types of the Spring Boot
 * generation that shows it: the details first, so that a DOWN answer shows them too, then the lock table's cheap
 * query, which throws when the table does not answer. The query runs on a thread of its own and is waited for at most
 * {@link #DEADLINE}, so that health answers within a second even while the database is gone and the query waits for
 * a connection: DOWN, saying that the lock table did not answer in time and why the last check failed. One query runs
 * at a time; a check while it still waits waits for that one.
 */
final class LockTableHealth {

    static final String FAILURE_MESSAGE = "Distributed lock health check failed";

    /** How long a check waits for the lock table's answer. */
    static final Duration DEADLINE = Duration.ofMillis(800);

    private final LockRepository repository;

    private final LockManager manager;

    private final ThreadPoolExecutor probes = new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), task -> {
                Thread thread = new Thread(task, "distlock-health");
                thread.setDaemon(true);
                return thread;
            });

    /** Guarded by {@code this}. */
    private @Nullable CompletableFuture<Void> probe;

    /** Why the last query that ended failed, or {@code null} when it succeeded. */
    private volatile @Nullable String lastFailure;

    LockTableHealth(LockRepository repository, LockManager manager) {
        this.repository = repository;
        this.manager = manager;
    }

    void check(BiConsumer<String, Object> detail) throws Exception {
        detail.accept("activeLeases", manager.activeLeases().size());
        detail.accept("lostLeases", manager.lostLeaseCount());
        try {
            probe().get(DEADLINE.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException ex) {
            String last = lastFailure;
            throw new LockTableNotAnsweringException("The lock table did not answer within " + DEADLINE
                    + (last != null ? "; the last check failed: " + last : "; the check goes on in the background"));
        }
        catch (ExecutionException ex) {
            throw ex.getCause() instanceof Exception cause ? cause : ex;
        }
    }

    private synchronized CompletableFuture<Void> probe() {
        if (probe == null || probe.isDone()) {
            probe = CompletableFuture.runAsync(() -> SchemaVerification.verify(repository), probes)
                    .whenComplete((done, failure) -> lastFailure = failure == null ? null
                            : NestedExceptionUtils.getMostSpecificCause(failure).toString());
        }
        return probe;
    }

    /** The lock table gave no answer within {@link #DEADLINE}. */
    static final class LockTableNotAnsweringException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        LockTableNotAnsweringException(String message) {
            super(message);
        }
    }
}

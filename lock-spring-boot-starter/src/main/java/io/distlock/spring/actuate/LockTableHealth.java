package io.distlock.spring.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

import io.distlock.core.DelegatingLockRepository;
import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.core.SchemaVerification;
import io.distlock.jdbc.JdbcLockRepository;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;

/**
 * What the {@code distributedLock} health indicator checks, apart from the health types of the Spring Boot
 * generation that shows it: the details first, so that a DOWN answer shows them too, then the lock table's cheap
 * query, which throws when the table does not answer. The query runs on a thread of its own and is waited for at most
 * {@link #DEADLINE}, so that health answers within a second even while the database is gone and the query waits for
 * a connection: DOWN, saying that the lock table did not answer in time and why the last check failed. One query runs
 * at a time; a check while it still waits waits for that one. On the JDBC store the details also say which
 * replication mode the deployment is in and what the server said about its standbys ({@code replication}), as the
 * last check read it.
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

    /** What the last check read of the server's replication, or {@code null} when none has, or not on JDBC. */
    private volatile @Nullable Map<String, Object> replication;

    /** Why the last query that ended failed, or {@code null} when it succeeded. */
    private volatile @Nullable String lastFailure;

    LockTableHealth(LockRepository repository, LockManager manager) {
        this.repository = repository;
        this.manager = manager;
    }

    void check(BiConsumer<String, Object> detail) throws Exception {
        detail.accept("activeLeases", manager.activeLeases().size());
        detail.accept("lostLeases", manager.lostLeaseCount());
        Map<String, Object> known = replication;
        if (known != null) {
            detail.accept("replication", known);
        }
        try {
            probe().get(DEADLINE.toNanos(), TimeUnit.NANOSECONDS);
            Map<String, Object> read = replication;
            if (read != null && read != known) {
                detail.accept("replication", read);
            }
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
            probe = CompletableFuture.runAsync(() -> {
                SchemaVerification.verify(repository);
                JdbcLockRepository jdbc = jdbc(repository);
                if (jdbc != null) {
                    replication = jdbc.replicationStatus().details();
                }
            }, probes)
                    .whenComplete((done, failure) -> lastFailure = failure == null ? null
                            : NestedExceptionUtils.getMostSpecificCause(failure).toString());
        }
        return probe;
    }

    private static @Nullable JdbcLockRepository jdbc(LockRepository repository) {
        LockRepository current = repository;
        for (int depth = 0; depth < 16 && current instanceof DelegatingLockRepository wrapper; depth++) {
            current = wrapper.delegate();
        }
        return current instanceof JdbcLockRepository jdbc ? jdbc : null;
    }

    /** The lock table gave no answer within {@link #DEADLINE}. */
    static final class LockTableNotAnsweringException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        LockTableNotAnsweringException(String message) {
            super(message);
        }
    }
}

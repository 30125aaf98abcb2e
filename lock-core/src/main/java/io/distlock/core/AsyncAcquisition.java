package io.distlock.core;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link LockManager#acquireAsync} call: attempts on the caller's executor, pauses between them on a timer, so
 * that no thread is held while the lock is held elsewhere. The attempts run one after the other, each handed to the
 * executor by the one before it, so this object's state is touched by one thread at a time.
 */
final class AsyncAcquisition {

    private static final Logger logger = LoggerFactory.getLogger(AsyncAcquisition.class);

    private final Acquisitions acquisitions;

    private final LockRequest request;

    private final Executor executor;

    private final long maxPollNanos;

    private final long start = System.nanoTime();

    private final long deadline;

    private final CompletableFuture<Optional<Lease>> result = new CompletableFuture<>();

    private long backoff = Acquisitions.MIN_BACKOFF_NANOS;

    private AsyncAcquisition(Acquisitions acquisitions, LockRequest request, Executor executor, long maxPollNanos) {
        this.acquisitions = acquisitions;
        this.request = request;
        this.executor = executor;
        this.maxPollNanos = maxPollNanos;
        this.deadline = start + request.maxWait().toNanos();
    }

    static CompletableFuture<Optional<Lease>> start(Acquisitions acquisitions, LockRequest request,
            Executor executor) {
        AsyncAcquisition acquisition = new AsyncAcquisition(acquisitions, request, executor,
                acquisitions.maxPollNanos());
        acquisition.attemptOn(executor);
        return acquisition.result;
    }

    private void attemptOn(Executor on) {
        try {
            on.execute(this::attempt);
        }
        catch (RuntimeException rejected) {
            result.completeExceptionally(rejected);
        }
    }

    private void attempt() {
        if (result.isDone()) {
            // Cancelled while it paused.
            return;
        }
        Optional<Lease> lease;
        try {
            lease = acquisitions.attempt(request, start);
        }
        catch (RuntimeException ex) {
            result.completeExceptionally(ex);
            return;
        }
        long remaining = deadline - System.nanoTime();
        if (lease.isEmpty() && remaining > 0) {
            long jittered = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
            backoff = Math.min(maxPollNanos, backoff * 2);
            attemptOn(CompletableFuture.delayedExecutor(Math.min(jittered, remaining), TimeUnit.NANOSECONDS,
                    executor));
            return;
        }
        acquisitions.observed(request, start, lease);
        if (lease.isPresent() && request.renew()) {
            lease.get().keepAlive(request.maxHold());
        }
        if (!result.complete(lease) && lease.isPresent()) {
            // Cancelled while the attempt was in flight: nobody will use the lease.
            release(lease.get());
        }
    }

    private static void release(Lease lease) {
        try {
            lease.release();
        }
        catch (RuntimeException ex) {
            logger.warn("Could not release the lock on '{}' taken for a cancelled acquire (owner {}); it expires by "
                    + "itself at {}", lease.resource(), OwnerFingerprint.of(lease.owner()), lease.expiresAt(), ex);
        }
    }
}

package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives back the locks that acquires may have taken although their caller got no answer: an acquire that failed
 * after it was sent (a connection broken by its network timeout, a server that froze) may still be run and committed
 * by the store, leaving a lock whose owner nobody knows. Each such owner is released in the background, on a daemon
 * thread of its own (never the watchdog's, whose renewals must not wait for a store that does not answer), retried
 * with backoff while the store does not answer, until a release applies; after a first answer that found nothing, one
 * more at least a second later, for an acquire the store runs only after the release (a server that resumes both at
 * once). Owners are never reused, so such a release cannot touch any other acquisition. It gives up once twice the TTL
 * has passed since the acquire was sent; the lock, if taken, then runs out by its TTL. An acquire refused for its
 * arguments sent nothing and gives nothing back.
 */
final class GiveBacks implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(GiveBacks.class);

    static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** How long after a first "nothing there" the release is sent once more. */
    static final long CONFIRM_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LockRepository repository;

    private @Nullable ScheduledThreadPoolExecutor executor;

    private boolean closed;

    GiveBacks(LockRepository repository) {
        this.repository = repository;
    }

    /**
     * Gives back what an acquire that failed may have taken.
     *
     * @param resource the resource it asked for
     * @param owner the owner it sent, used for no other acquisition
     * @param ttl the TTL it asked for
     */
    void giveBack(String resource, String owner, Duration ttl) {
        schedule(new Attempt(resource, owner, System.nanoTime() + 2 * ttl.toNanos()), 0);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    private synchronized void schedule(Attempt attempt, long delayNanos) {
        if (closed) {
            return;
        }
        if (executor == null) {
            executor = new ScheduledThreadPoolExecutor(1, task -> {
                Thread thread = new Thread(task, "distlock-give-back");
                thread.setDaemon(true);
                return thread;
            });
        }
        try {
            executor.schedule(attempt, delayNanos, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException ex) {
            // Closed meanwhile: the lock, if taken, runs out by its TTL.
        }
    }

    /** One lock to give back, and how far its attempts got. */
    private final class Attempt implements Runnable {

        private final String resource;

        private final String owner;

        private final long unansweredDeadline;

        private long retryNanos = FIRST_RETRY_NANOS;

        private boolean answeredOnce;

        Attempt(String resource, String owner, long unansweredDeadline) {
            this.resource = resource;
            this.owner = owner;
            this.unansweredDeadline = unansweredDeadline;
        }

        @Override
        public void run() {
            LockResult result;
            try {
                result = repository.release(resource, owner);
            }
            catch (RuntimeException ex) {
                if (System.nanoTime() - unansweredDeadline >= 0) {
                    logger.debug("Gave up giving back the lock on '{}' an acquire with no answer may have taken "
                            + "(owner {}): it runs out by its TTL", resource, OwnerFingerprint.of(owner), ex);
                    return;
                }
                schedule(this, retryNanos);
                retryNanos = Math.min(MAX_RETRY_NANOS, retryNanos * 2);
                return;
            }
            if (result == LockResult.APPLIED) {
                logger.info("Gave back the lock on '{}' that an acquire whose answer never came had taken (owner {})",
                        resource, OwnerFingerprint.of(owner));
            }
            else if (!answeredOnce) {
                answeredOnce = true;
                schedule(this, CONFIRM_NANOS);
            }
        }
    }
}

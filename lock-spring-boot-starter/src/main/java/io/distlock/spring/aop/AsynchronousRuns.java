package io.distlock.spring.aop;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.distlock.core.Lease;
import io.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * The asynchronous guarded calls still running, so that closing the application context ends them while the lock
 * manager and the store are still there: before any bean is destroyed (after the web server and the schedulers
 * stopped), every one still running is stopped — its work cancelled, its lock released, its result failed with a
 * {@link java.util.concurrent.CancellationException} — and the close waits for those releases, at most
 * {@link #RELEASE_WAIT}. Without this, the watchdog would stop renewing locks whose work runs on, and their releases
 * would reach a closed store.
 */
final class AsynchronousRuns implements SmartLifecycle {

    /** How long the close waits at most for the releases of the calls it stopped. */
    static final Duration RELEASE_WAIT = Duration.ofSeconds(10);

    private static final Logger logger = LoggerFactory.getLogger(DistributedLockInterceptor.class);

    /** The leases of the calls running, each with what stops its call. */
    private final Map<Lease, Runnable> running = new ConcurrentHashMap<>();

    private volatile boolean started;

    private volatile boolean closing;

    /**
     * Tells that a call holds its lease now.
     *
     * @param lease its lease
     * @param stop stops the call (cancels its work, releases the lease, fails its result), once
     */
    void started(Lease lease, Runnable stop) {
        running.put(lease, stop);
        if (closing && running.remove(lease) != null) {
            stop.run();
        }
    }

    /**
     * Releases a call's lease ({@link LeaseReleases#release}): the call no longer needs stopping.
     *
     * @param lease its lease
     * @return the loss when the lease was found lost before the end, otherwise {@code null}
     */
    @Nullable LockLostException release(Lease lease) {
        try {
            return LeaseReleases.release(lease);
        }
        finally {
            ended(lease);
        }
    }

    private void ended(Lease lease) {
        if (running.remove(lease) != null) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /**
     * A call stopped because the application closed fails with this.
     *
     * @param description the method, named for messages
     * @return the exception
     */
    static java.util.concurrent.CancellationException closed(String description) {
        return new java.util.concurrent.CancellationException(description + " was stopped: the application context "
                + "closed while its asynchronous work ran; its lock was released");
    }

    @Override
    public void start() {
        started = true;
    }

    @Override
    public void stop() {
        closing = true;
        started = false;
        if (running.isEmpty()) {
            return;
        }
        int stopped = running.size();
        running.values().forEach(Runnable::run);
        long deadline = System.nanoTime() + RELEASE_WAIT.toNanos();
        synchronized (this) {
            long left;
            while (!running.isEmpty() && (left = deadline - System.nanoTime()) > 0) {
                try {
                    wait(Math.max(1, left / 1_000_000));
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (running.isEmpty()) {
            logger.info("Stopped {} asynchronous guarded call(s) still running as the application closed; their locks "
                    + "were released", stopped);
        }
        else {
            logger.warn("Stopped {} asynchronous guarded call(s) still running as the application closed; {} lock(s) "
                    + "were not released within {} and expire by their TTLs", stopped, running.size(), RELEASE_WAIT);
        }
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    /** After the web server's graceful shutdown and the schedulers, before the beans are destroyed. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }
}

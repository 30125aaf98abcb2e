package io.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * How a {@link LockManager} takes locks: one attempt with an owner token of its own, or attempts polled with
 * exponential backoff and jitter (and woken by releases, {@link ReleaseSignals}) until the request's wait is over; a
 * lease kept alive as its request says; what an attempt that failed may have taken given back ({@link GiveBacks}); and
 * every acquisition told to the manager's observers. One attempt and its report are also what an acquire that holds
 * no thread is made of ({@link AsyncAcquisition}).
 */
final class Acquisitions {

    /** The first pause between two attempts of a waiting acquire. */
    static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final LockRepository repository;

    private final OwnerGenerator ownerGenerator;

    private final LeaseRegistry host;

    private final long maxPollNanos;

    Acquisitions(LockRepository repository, OwnerGenerator ownerGenerator, LeaseRegistry host, Duration maxPoll) {
        this.repository = repository;
        this.ownerGenerator = ownerGenerator;
        this.host = host;
        this.maxPollNanos = maxPoll.toNanos();
    }

    /** @return the longest pause between two attempts of a waiting acquire, in nanoseconds */
    long maxPollNanos() {
        return maxPollNanos;
    }

    /**
     * Takes the lock a request names, waiting for it as the request says, and keeps the lease alive unless the
     * request says not to.
     *
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    Optional<Lease> acquire(LockRequest request) throws InterruptedException {
        Optional<Lease> lease = request.maxWait().isZero() ? once(request) : waiting(request);
        if (lease.isPresent() && request.renew()) {
            lease.get().keepAlive(request.maxHold());
        }
        return lease;
    }

    Optional<Lease> once(LockRequest request) {
        long start = System.nanoTime();
        return observed(request, start, attempt(request, start));
    }

    Optional<Lease> waiting(LockRequest request) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + request.maxWait().toNanos();
        long backoff = MIN_BACKOFF_NANOS;
        try (ReleaseSignals.Waiter waiter = host.releases().waitFor(request.resource())) {
            while (true) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("Interrupted while waiting for the lock on '" + request.resource()
                            + "'");
                }
                waiter.mark();
                Optional<Lease> lease = attempt(request, start);
                long remaining = deadline - System.nanoTime();
                if (lease.isPresent() || remaining <= 0) {
                    return observed(request, start, lease);
                }
                long jittered = backoff / 2 + ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
                // A release of this manager's own lease on the resource, or one the store's feed tells of, wakes the
                // wait at once.
                waiter.await(Math.min(jittered, remaining));
                backoff = Math.min(maxPollNanos, backoff * 2);
            }
        }
    }

    Optional<Lease> attempt(LockRequest request, long start) {
        String owner = ownerGenerator.nextOwner();
        try {
            long sentAt = System.nanoTime();
            Optional<LockRecord> acquired = repository.acquire(request.resource(), owner, request.ttl());
            if (acquired.isPresent() && System.nanoTime() - sentAt >= request.ttl().toNanos()) {
                // The acquire took its whole TTL (it waited for a row lock): counted from when it was sent, the lease
                // would be over at once although the database may keep it longer. A renewal confirms it, and the
                // holder's clock starts when that renewal is sent.
                sentAt = System.nanoTime();
                acquired = Optional.ofNullable(repository.renew(request.resource(), owner, request.ttl()).record());
            }
            long confirmedAt = sentAt;
            return acquired.map(record -> new Lease(host, record, request.ttl(), request.minHold(), confirmedAt,
                    request.label()));
        }
        catch (RuntimeException ex) {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            if (!(ex instanceof IllegalArgumentException)) {
                // The store may still run the acquire and take the lock for an owner nobody will know.
                host.giveBacks().giveBack(request.resource(), owner, request.ttl());
            }
            host.events().acquireFailed(request.label(), request.resource(), elapsed, ex);
            throw ex;
        }
    }

    Optional<Lease> observed(LockRequest request, long start, Optional<Lease> lease) {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        if (lease.isPresent()) {
            host.acquired(request.label(), lease.get(), elapsed);
        }
        else {
            host.events().held(request.label(), request.resource(), elapsed);
        }
        return lease;
    }
}

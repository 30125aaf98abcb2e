package io.distlock.spring.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockLostException;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.OnLocked;
import io.distlock.testsupport.CountingDataSource;
import org.jspecify.annotations.Nullable;

import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The guarded methods the contract tests call: one per behaviour.
 */
public class GuardedJobs {

    private final AtomicInteger runs = new AtomicInteger();

    private final LockManager lockManager;

    private final NestedJobs nested;

    private final CountingDataSource dataSource;

    public GuardedJobs(LockManager lockManager, NestedJobs nested, CountingDataSource dataSource) {
        this.lockManager = lockManager;
        this.nested = nested;
        this.dataSource = dataSource;
    }

    /** How many guarded bodies ran; a method, because fields of the proxy are not the target's. */
    public int runs() {
        return runs.get();
    }

    @DistributedLock(resource = "report:#{#month}")
    public String byName(String month) {
        return CurrentLease.require().resource();
    }

    @DistributedLock(resource = "order:#{#p0}-#{#a1}")
    public String byIndex(String customer, int number) {
        return CurrentLease.require().resource();
    }

    @DistributedLock(resource = "#{@lockNames.prefix()}:#{#id}")
    public String byBean(String id) {
        return CurrentLease.require().resource();
    }

    @DistributedLock(resource = "${test.lock.prefix}:#{#id}")
    public String byPlaceholder(String id) {
        return CurrentLease.require().resource();
    }

    @DistributedLock(resource = "literal:${test.lock.prefix}:job")
    public String literal() {
        return CurrentLease.require().resource();
    }

    @DistributedLock(resource = "#{#root.methodName}@#{#root.targetClass.simpleName}/#{#root.args.length}")
    public String byRoot(String ignored) {
        return CurrentLease.require().resource();
    }

    @DistributedLock(resource = "#{#name}")
    public @Nullable String skip(String name) {
        runs.incrementAndGet();
        return "ran";
    }

    @DistributedLock(resource = "#{#name}")
    public Optional<String> skipOptional(String name) {
        runs.incrementAndGet();
        return Optional.of("ran");
    }

    @DistributedLock(resource = "#{#name}", onLocked = OnLocked.THROW)
    public String throwing(String name) {
        runs.incrementAndGet();
        return "ran";
    }

    @DistributedLock(resource = "#{#name}", onLocked = OnLocked.WAIT, waitTimeout = "PT20S")
    public String waiting(String name) {
        runs.incrementAndGet();
        return "ran";
    }

    @DistributedLock(resource = "#{#name}", onLocked = OnLocked.WAIT, waitTimeout = "PT0.3S")
    public String waitingBriefly(String name) {
        runs.incrementAndGet();
        return "ran";
    }

    @DistributedLock(resource = "#{#name}", minHold = "PT2S")
    public Lease minHold(String name) {
        return CurrentLease.require();
    }

    /** Runs for {@code duration} on a 1-second lease while another owner keeps trying to take the lock. */
    @DistributedLock(resource = "#{#name}", ttl = "PT1S")
    public WatchdogRun outlastTtl(String name, Duration duration) throws InterruptedException {
        Lease lease = CurrentLease.require();
        LockRecord first = snapshot(lease);
        int attempts = 0;
        int stolen = 0;
        long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Lease> other = lockManager.tryAcquire(name, Duration.ofSeconds(1));
            attempts++;
            if (other.isPresent()) {
                stolen++;
                other.get().release();
            }
            lease.checkHeld();
            TimeUnit.MILLISECONDS.sleep(200);
        }
        return new WatchdogRun(lease, first, snapshot(lease), attempts, stolen);
    }

    /** Lets {@code steal} take the lock from under this call, then waits until the watchdog notices. */
    @DistributedLock(resource = "#{#name}", ttl = "PT2S")
    public LossSeen loseLease(String name, Runnable steal) {
        return awaitLoss(steal);
    }

    @DistributedLock(resource = "#{#name}", ttl = "PT2S", onLocked = OnLocked.THROW)
    public LossSeen loseLeaseThrowing(String name, Runnable steal) {
        return awaitLoss(steal);
    }

    @DistributedLock(resource = "#{#name}", ttl = "PT2S", onLocked = OnLocked.WAIT, waitTimeout = "PT1S")
    public LossSeen loseLeaseWaiting(String name, Runnable steal) {
        return awaitLoss(steal);
    }

    /** Lets {@code steal} take the lock, waits until the lease is known lost, then calls a nested guarded method. */
    @DistributedLock(resource = "#{#name}", ttl = "PT2S")
    public @Nullable Lease nestedAfterLoss(String name, Runnable steal) {
        Lease lease = CurrentLease.require();
        steal.run();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(lease::isLost);
        Thread.interrupted();
        return nested.inner(name);
    }

    /** Waits, as long work would, until interrupt-on-loss interrupts this thread. */
    private static LossSeen awaitLoss(Runnable steal) {
        Lease lease = CurrentLease.require();
        steal.run();
        boolean interrupted = false;
        try {
            TimeUnit.SECONDS.sleep(20);
        }
        catch (InterruptedException ex) {
            interrupted = true;
        }
        LockLostException checkHeld = null;
        try {
            lease.checkHeld();
        }
        catch (LockLostException ex) {
            checkHeld = ex;
        }
        return new LossSeen(lease, lease.isLost(), interrupted, checkHeld);
    }

    @DistributedLock(resource = "#{#name}")
    public Nesting outer(String name) {
        Lease outer = CurrentLease.require();
        int before = dataSource.statements();
        Lease inner = nested.inner(name);
        int during = dataSource.statements() - before;
        Lease afterInner = CurrentLease.require();
        return new Nesting(outer, inner, afterInner, during, outer.isReleased());
    }

    /**
     * Makes nested guarded calls that fail in every way one can — the body throws on the joined lease, the body
     * throws on a lease of its own, the resource evaluates to null, another owner holds the lock — and after each
     * records the current lease and the lease a further nested call on this resource joins.
     */
    @DistributedLock(resource = "#{#name}")
    public NestedFailures outerAfterFailingNestedCalls(String name, String other, String heldElsewhere) {
        Lease outer = CurrentLease.require();
        List<Runnable> calls = List.of(() -> nested.failing(name), () -> nested.failing(other),
                () -> nested.inner(null), () -> nested.throwing(heldElsewhere));
        List<Throwable> failures = new ArrayList<>();
        List<Lease> current = new ArrayList<>();
        List<Lease> joined = new ArrayList<>();
        for (Runnable call : calls) {
            try {
                call.run();
            }
            catch (RuntimeException ex) {
                failures.add(ex);
            }
            current.add(CurrentLease.require());
            joined.add(nested.inner(name));
        }
        return new NestedFailures(outer, failures, current, joined, outer.isReleased());
    }

    @DistributedLock(resource = "#{#name}")
    public void failing(String name) {
        runs.incrementAndGet();
        throw new IllegalStateException("boom in " + CurrentLease.require().resource());
    }

    @DistributedLock(resource = "#{#name}")
    public void nullable(@Nullable String name) {
        runs.incrementAndGet();
    }

    @Transactional
    @DistributedLock(resource = "#{#name}")
    public Boolean transactional(String name, Consumer<Lease> afterCommit) {
        Lease lease = CurrentLease.require();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                afterCommit.accept(lease);
            }
        });
        return TransactionSynchronizationManager.isActualTransactionActive();
    }

    @DistributedLock(resource = "overhead:literal")
    public void overheadLiteral() {
    }

    @DistributedLock(resource = "overhead:#{#id}")
    public void overheadTemplate(String id) {
    }

    /** What {@link #outlastTtl} saw. */
    public record WatchdogRun(Lease lease, LockRecord first, LockRecord last, int attempts, int stolen) {
    }

    /** What {@link #loseLease} saw. */
    public record LossSeen(Lease lease, boolean lost, boolean interrupted, @Nullable LockLostException checkHeld) {
    }

    /** What {@link #outer} saw. */
    public record Nesting(Lease outer, Lease inner, Lease afterInner, int statementsDuringInner,
            boolean outerReleasedAfterInner) {
    }

    /** What {@link #outerAfterFailingNestedCalls} saw. */
    public record NestedFailures(Lease outer, List<Throwable> failures, List<Lease> currentAfterEach,
            List<Lease> joinedAfterEach, boolean outerReleasedInside) {
    }

    /** A bean referenced from a resource template. */
    public static class LockNames {

        public String prefix() {
            return "named";
        }
    }

    /** Collects every lease the manager reports lost. */
    public static class LostLeases implements io.distlock.core.LeaseLostListener {

        final List<String> resources = new ArrayList<>();

        @Override
        public synchronized void leaseLost(Lease lease, String reason) {
            resources.add(lease.resource());
        }

        synchronized List<String> resources() {
            return List.copyOf(resources);
        }
    }

    private static LockRecord snapshot(Lease lease) {
        return new LockRecord(lease.resource(), lease.owner(), lease.token(), lease.acquiredAt(), lease.expiresAt());
    }
}

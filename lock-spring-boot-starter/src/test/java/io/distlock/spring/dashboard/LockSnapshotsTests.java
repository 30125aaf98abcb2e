package io.distlock.spring.dashboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessResourceFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reading the store for the dashboard is bounded: a store that hangs leaves a request with the last good data and
 * the reason after the timeout, never a second read beside the one still running; a store that fails says why; a
 * store that answers again is read again.
 */
class LockSnapshotsTests {

    private final Store store = new Store();

    private final LockSnapshots snapshots = new LockSnapshots(store, Duration.ZERO, Duration.ofMillis(200),
            Clock.systemUTC());

    @AfterEach
    void release() {
        store.gate.countDown();
        snapshots.destroy();
    }

    @Test
    void aHangingStoreLeavesTheLastGoodDataWithTheReasonAndOneReadAtATime() {
        store.gate.countDown();
        LockSnapshots.Reading good = snapshots.read();
        assertThat(good.problem()).isNull();
        assertThat(good.snapshot().locks()).hasSize(1);

        store.block();
        LockSnapshots.Reading first = snapshots.read();
        LockSnapshots.Reading second = snapshots.read();
        assertThat(first.problem()).isEqualTo("the lock store did not answer within PT0.2S");
        assertThat(first.snapshot()).as("the last good data").isSameAs(good.snapshot());
        assertThat(second.problem()).isEqualTo(first.problem());
        assertThat(store.reads.get()).as("the hanging read is shared, never doubled").isEqualTo(2);

        store.gate.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> snapshots.read().problem() == null);
    }

    @Test
    void aFailingStoreSaysWhyAndNoDataIsInventedBeforeItsFirstAnswer() {
        store.failing = true;
        store.gate.countDown();
        LockSnapshots.Reading reading = snapshots.read();
        assertThat(reading.snapshot()).isNull();
        assertThat(reading.readAt()).isNull();
        assertThat(reading.problem()).isEqualTo("the lock store failed: DataAccessResourceFailureException: "
                + "Connection refused");
    }

    @Test
    void aFreshSnapshotIsSharedByRequests() {
        store.gate.countDown();
        LockSnapshots shared = new LockSnapshots(store, Duration.ofMinutes(1), Duration.ofSeconds(5),
                Clock.systemUTC());
        try {
            assertThat(shared.read().snapshot()).isSameAs(shared.read().snapshot());
            assertThat(store.reads.get()).isEqualTo(1);
        }
        finally {
            shared.destroy();
        }
    }

    /** A store whose reads wait for a gate, or fail. */
    static final class Store implements LockRepository, io.distlock.core.BatchRenewal {

        volatile CountDownLatch gate = new CountDownLatch(1);

        final AtomicInteger reads = new AtomicInteger();

        volatile boolean failing;

        void block() {
            gate = new CountDownLatch(1);
        }

        @Override
        public List<LockRecord> findAll() {
            reads.incrementAndGet();
            try {
                gate.await();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            if (failing) {
                throw new DataAccessResourceFailureException("Connection refused");
            }
            Instant now = Instant.now();
            return List.of(new LockRecord("job:1", "replica-1:abcdefghijkl", 1, now, now.plusSeconds(30)));
        }

        @Override
        public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
            throw new UnsupportedOperationException();
        }

        @Override
        public RenewResult renew(String resource, String owner, Duration ttl) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.Map<LeaseKey, LockRecord> renewAll(java.util.Collection<LeaseKey> leases, Duration ttl) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LockResult release(String resource, String owner, Duration minHold) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<LockRecord> find(String resource) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int deleteExpired(Duration retention) {
            return 0;
        }
    }
}

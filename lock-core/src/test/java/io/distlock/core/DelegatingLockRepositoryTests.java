package io.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The store SPI seen through a wrapper: arguments checked by the wrapped store's rules before the wrapper acts,
 * capabilities handed out as the wrapped store's unless the wrapper implements them, and the fall-backs of a store
 * that lacks one.
 */
class DelegatingLockRepositoryTests {

    private static final Duration TTL = Duration.ofSeconds(10);

    private final MapStore store = new MapStore(LockArguments.withMaxTtl(Duration.ofMinutes(1)));

    /** Counts every call that reached {@link #target()}: the wrapper's own work before each operation. */
    private final AtomicInteger targeted = new AtomicInteger();

    private final DelegatingLockRepository wrapper = new DelegatingLockRepository(store) {
        @Override
        protected LockRepository target() {
            targeted.incrementAndGet();
            return super.target();
        }
    };

    @Test
    void badArgumentsAreRefusedByTheStoresRulesBeforeTheWrapperActs() {
        assertThatIllegalArgumentException().isThrownBy(() -> wrapper.acquire(" ", "owner", TTL))
                .withMessageContaining("resource must not be blank");
        assertThatIllegalArgumentException().isThrownBy(() -> wrapper.acquire("job", "owner", Duration.ofMinutes(2)))
                .withMessage("ttl must be at most PT1M, got PT2M");
        assertThatIllegalArgumentException().isThrownBy(() -> wrapper.renew("job", "", TTL))
                .withMessageContaining("owner must not be blank");
        assertThatIllegalArgumentException().isThrownBy(() -> wrapper.release("job", "owner", Duration.ofMinutes(2)))
                .withMessage("minHold must be at most PT1M, got PT2M");
        assertThatIllegalArgumentException().isThrownBy(() -> wrapper.find("bad\u0007name"))
                .withMessageContaining("control characters");
        assertThatIllegalArgumentException().isThrownBy(() -> wrapper.deleteExpired(Duration.ofSeconds(59)))
                .withMessage("retention must be at least PT1M, got PT59S");
        assertThat(targeted).as("the wrapper did nothing for a call refused").hasValue(0);
        assertThat(store.calls).as("nothing reached the store").hasValue(0);
    }

    @Test
    void goodCallsGoThroughTheTargetToTheStore() {
        LockRecord held = wrapper.acquire("job", "owner", TTL).orElseThrow();
        assertThat(wrapper.find("job")).contains(held);
        assertThat(wrapper.release("job", "owner")).isEqualTo(LockResult.APPLIED);
        assertThat(targeted).hasValue(3);
        assertThat(wrapper.arguments()).isSameAs(store.arguments());
    }

    @Test
    void capabilitiesAreTheWrappedStoresUnlessTheWrapperImplementsThem() {
        assertThat(wrapper.capability(BatchRenewal.class)).containsSame(store);
        assertThat(wrapper.capability(SlotStore.class)).as("the store keeps no slots").isEmpty();
        final class CountingRenewals extends DelegatingLockRepository implements BatchRenewal {

            int rounds;

            CountingRenewals() {
                super(store);
            }

            @Override
            public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
                rounds++;
                return delegate().capability(BatchRenewal.class).orElseThrow().renewAll(leases, ttl);
            }
        }
        CountingRenewals counting = new CountingRenewals();
        assertThat(counting.capability(BatchRenewal.class)).containsSame(counting);
        counting.capability(BatchRenewal.class).orElseThrow().renewAll(List.of(), TTL);
        assertThat(counting.rounds).isOne();
    }

    @Test
    void aStoreWithoutSlotsSaysSoAndHasNoRuns() {
        assertThatThrownBy(() -> SlotStore.of(wrapper)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("MapStore does not keep scheduled slots");
        assertThat(SlotStore.recentRuns(wrapper, null, 10)).isEmpty();
        assertThat(ReleaseFeeds.open(wrapper, resource -> { })).isSameAs(ReleaseFeed.NONE);
    }

    @Test
    void theForcedReleaseOfAStoreWithoutOneReleasesOnlyTheTokenItWasGiven() {
        LockRecord held = store.acquire("job", "owner", TTL).orElseThrow();
        ForcedRelease forced = ForcedRelease.of(wrapper);
        assertThat(forced.forceRelease("job", held.token() + 1)).isEqualTo(LockResult.FORBIDDEN);
        assertThat(store.find("job")).isPresent();
        assertThat(forced.forceRelease("job", held.token())).isEqualTo(LockResult.APPLIED);
        assertThat(store.find("job")).isEmpty();
        assertThat(forced.forceRelease("job", held.token())).isEqualTo(LockResult.NOT_FOUND);
    }

    @Test
    void slotArgumentsNameTheValueAtFault() {
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.slotClaim("", "owner", Instant.EPOCH))
                .withMessageContaining("job must not be blank");
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.slotClaim("job", "owner", null))
                .withMessage("slot must not be null");
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.slotFinish("job", Instant.EPOCH, null))
                .withMessage("outcome must not be null");
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.slotRuns(null, 0))
                .withMessage("limit must be at least 1, got 0");
        assertThatIllegalArgumentException().isThrownBy(() -> LockArguments.withMaxTtl(Duration.ofDays(3651)))
                .withMessage("maxTtl must be at most PT87600H, got PT87624H");
        assertThatIllegalArgumentException().isThrownBy(() -> store.arguments().leases(
                List.of(new LeaseKey("job", " ")), TTL)).withMessageContaining("owner must not be blank");
    }

    /** A lock store in a map, with batch renewal and nothing else, counting the calls that reach it. */
    private static final class MapStore implements LockRepository, BatchRenewal {

        final AtomicInteger calls = new AtomicInteger();

        private final LockArguments arguments;

        private final Map<String, LockRecord> rows = new java.util.concurrent.ConcurrentHashMap<>();

        private long tokens;

        MapStore(LockArguments arguments) {
            this.arguments = arguments;
        }

        @Override
        public LockArguments arguments() {
            return arguments;
        }

        @Override
        public synchronized Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
            arguments.lease(resource, owner, ttl);
            calls.incrementAndGet();
            Instant now = Instant.now();
            LockRecord current = live(resource);
            if (current != null && !current.owner().equals(owner)) {
                return Optional.empty();
            }
            LockRecord record = new LockRecord(resource, owner, current != null ? current.token() : ++tokens, now,
                    now.plus(ttl));
            rows.put(resource, record);
            return Optional.of(record);
        }

        @Override
        public RenewResult renew(String resource, String owner, Duration ttl) {
            arguments.lease(resource, owner, ttl);
            calls.incrementAndGet();
            return RenewResult.refused(LockResult.NOT_FOUND);
        }

        @Override
        public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
            arguments.leases(leases, ttl);
            calls.incrementAndGet();
            return Map.of();
        }

        @Override
        public synchronized LockResult release(String resource, String owner, Duration minHold) {
            arguments.release(resource, owner, minHold);
            calls.incrementAndGet();
            LockRecord current = live(resource);
            if (current == null) {
                return LockResult.NOT_FOUND;
            }
            if (!current.owner().equals(owner)) {
                return LockResult.FORBIDDEN;
            }
            rows.remove(resource);
            return LockResult.APPLIED;
        }

        @Override
        public Optional<LockRecord> find(String resource) {
            LockArguments.requireResource(resource);
            calls.incrementAndGet();
            return Optional.ofNullable(live(resource));
        }

        @Override
        public List<LockRecord> findAll() {
            calls.incrementAndGet();
            return List.copyOf(rows.values());
        }

        @Override
        public int deleteExpired(Duration retention) {
            LockArguments.retention(retention);
            calls.incrementAndGet();
            return 0;
        }

        private @Nullable LockRecord live(String resource) {
            LockRecord record = rows.get(resource);
            return record != null && record.expiresAt().isAfter(Instant.now()) ? record : null;
        }
    }
}

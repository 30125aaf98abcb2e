package io.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.TestDatabase;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CurrentLease} through Micrometer's context propagation: the accessor is found on the class path, carries a
 * lease from a captured thread to another thread, and restores what that thread had.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeaseThreadLocalAccessorTests {

    private final ContextSnapshotFactory snapshots = ContextSnapshotFactory.builder()
            .contextRegistry(new ContextRegistry().loadThreadLocalAccessors()).build();

    private LockTableName table;

    private LockManager locks;

    @BeforeAll
    void createTable() {
        table = TestDatabase.H2.createLockTable();
        locks = LockManager.builder(JdbcLockRepository.builder(TestDatabase.H2.dataSource()).tableName(table.value())
                .build()).build();
    }

    @AfterAll
    void dropTable() {
        locks.close();
        TestDatabase.H2.dropLockTable(table);
    }

    @Test
    void theAccessorIsRegisteredThroughTheServiceLoader() {
        assertThat(new ContextRegistry().loadThreadLocalAccessors().getThreadLocalAccessors())
                .anyMatch(accessor -> accessor.key().equals(CurrentLease.CONTEXT_KEY));
    }

    @Test
    void aLeaseCapturedInGuardedWorkIsTheCurrentLeaseOnAnotherThreadWhileItsScopeIsOpen() throws Exception {
        String resource = "accessor:" + UUID.randomUUID();
        ContextSnapshot snapshot = locks.runLocked(LockRequest.of(resource, Duration.ofSeconds(30)),
                lease -> snapshots.captureAll()).value();
        Optional<Lease>[] seen = seenOnAnotherThread(snapshot);
        assertThat(seen[0]).get().extracting(Lease::resource).isEqualTo(resource);
        assertThat(seen[1]).as("after the scope closed").isEmpty();
    }

    @Test
    void aLeaseCapturedInsideGuardedWorkIsCarriedToAnotherThreadAndTheOuterLeaseComesBack() throws Exception {
        String outer = "accessor:" + UUID.randomUUID();
        String inner = "accessor:" + UUID.randomUUID();
        locks.runLocked(LockRequest.of(outer, Duration.ofSeconds(30)), outerLease -> {
            ContextSnapshot captured = locks.runLocked(LockRequest.of(inner, Duration.ofSeconds(30)),
                    innerLease -> snapshots.captureAll()).value();
            try (ContextSnapshot.Scope scope = captured.setThreadLocals()) {
                assertThat(CurrentLease.require().resource()).isEqualTo(inner);
            }
            assertThat(CurrentLease.require()).as("the enclosing lease again").isSameAs(outerLease);
            return null;
        });
        assertThat(CurrentLease.get()).isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static Optional<Lease>[] seenOnAnotherThread(ContextSnapshot snapshot) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            Optional<Lease>[] seen = new Optional[2];
            try (ContextSnapshot.Scope scope = snapshot.setThreadLocals()) {
                seen[0] = CurrentLease.get();
            }
            seen[1] = CurrentLease.get();
            return seen;
        }).get(10, TimeUnit.SECONDS);
    }
}

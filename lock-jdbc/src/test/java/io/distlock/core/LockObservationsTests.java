package io.distlock.core;

import java.time.Duration;
import java.util.UUID;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.TestDatabase;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link LockManager#runLocked} as observations: {@code distributed.lock.call} for the call, {@code distributed.lock.work}
 * for the work under the lease, nested in the caller's observation, with the lock's label and outcome as
 * low-cardinality key values and the resource and token as high-cardinality ones.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockObservationsTests {

    private LockTableName table;

    private JdbcLockRepository repository;

    @BeforeAll
    void createTable() {
        table = TestDatabase.H2.createLockTable();
        repository = JdbcLockRepository.builder(TestDatabase.H2.dataSource()).tableName(table.value()).build();
    }

    @AfterAll
    void dropTable() {
        TestDatabase.H2.dropLockTable(table);
    }

    @Test
    void aGuardedCallIsObservedNestedInTheCallersObservationWithItsHoldInside() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        String resource = "report:" + UUID.randomUUID();
        try (LockManager locks = LockManager.builder(repository).observationRegistry(registry).build()) {
            Observation scheduled = Observation.start("tasks.scheduled.execution", registry);
            try (Observation.Scope scope = scheduled.openScope()) {
                locks.runLocked(LockRequest.of(resource, Duration.ofMinutes(1)).withLabel("report:#{#month}"),
                        lease -> null);
            }
            scheduled.stop();
        }
        assertThat(registry).hasObservationWithNameEqualTo("distributed.lock.call").that()
                .hasBeenStarted().hasBeenStopped()
                .hasContextualNameEqualTo("lock report:#{#month}")
                .hasLowCardinalityKeyValue("lock", "report:#{#month}")
                .hasLowCardinalityKeyValue("outcome", "ran")
                .hasHighCardinalityKeyValue("resource", resource)
                .hasHighCardinalityKeyValueWithKey("token")
                .hasParentObservationContextMatching(parent -> parent.getName().equals("tasks.scheduled.execution"));
        assertThat(registry).hasObservationWithNameEqualTo("distributed.lock.work").that()
                .hasBeenStopped()
                .hasParentObservationContextMatching(parent -> parent.getName().equals("distributed.lock.call"));
    }

    @Test
    void aCallThatFindsTheLockHeldOrFailsSaysSo() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        String resource = "held:" + UUID.randomUUID();
        try (LockManager locks = LockManager.builder(repository).observationRegistry(registry).build();
                Lease holder = locks.tryAcquire(resource, Duration.ofMinutes(1)).orElseThrow()) {
            locks.runLocked(LockRequest.of(resource, Duration.ofMinutes(1)), lease -> null);
            assertThat(registry).hasObservationWithNameEqualTo("distributed.lock.call").that()
                    .hasLowCardinalityKeyValue("outcome", "not-acquired");
            assertThat(registry).hasNumberOfObservationsWithNameEqualTo("distributed.lock.work", 0);
        }
        TestObservationRegistry failing = TestObservationRegistry.create();
        try (LockManager locks = LockManager.builder(repository).observationRegistry(failing).build()) {
            IllegalStateException boom = new IllegalStateException("boom");
            assertThatThrownBy(() -> locks.runLocked(LockRequest.of("fail:" + UUID.randomUUID(),
                    Duration.ofMinutes(1)), lease -> {
                        throw boom;
                    })).isSameAs(boom);
            assertThat(failing).hasObservationWithNameEqualTo("distributed.lock.call").that()
                    .hasLowCardinalityKeyValue("outcome", "error").hasError(boom);
            assertThat(failing).hasObservationWithNameEqualTo("distributed.lock.work").that().hasError(boom);
        }
    }
}

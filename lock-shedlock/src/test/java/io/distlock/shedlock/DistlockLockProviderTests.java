package io.distlock.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import io.distlock.core.LockRecord;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.TestDatabase;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * ShedLock's documented behaviours, through {@link DistlockLockProvider}, on H2, PostgreSQL and MariaDB: a held name
 * is not locked again, {@code lockAtMostFor} ends a lock nobody unlocked, {@code lockAtLeastFor} keeps an unlocked
 * lock held until that long after its acquisition, {@code extend} renews a lock and retires the old handle, and a
 * holder whose lock ran out cannot unlock or extend its successor's.
 */
class DistlockLockProviderTests {

    private static final Duration LONG = Duration.ofSeconds(30);

    private TestDatabase database;

    private LockTableName table;

    private JdbcLockRepository repository;

    private DistlockLockProvider provider;

    private final String name = "shedlock-job-" + UUID.randomUUID();

    private void on(TestDatabase database) {
        database.assumeAvailable();
        this.database = database;
        this.table = database.createLockTable();
        this.repository = JdbcLockRepository.builder(database.dataSource()).tableName(table.value())
                .dialect(database.dialect()).build();
        this.provider = new DistlockLockProvider(repository);
    }

    @AfterEach
    void dropTable() {
        if (table != null) {
            database.dropLockTable(table);
        }
    }

    private Optional<SimpleLock> lock(Duration atMost, Duration atLeast) {
        return provider.lock(new LockConfiguration(Instant.now(), name, atMost, atLeast));
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aHeldNameIsNotLockedAgainUntilItsHolderUnlocksIt(TestDatabase database) {
        on(database);
        SimpleLock held = lock(LONG, Duration.ZERO).orElseThrow();
        assertThat(lock(LONG, Duration.ZERO)).as("held, even for the same node").isEmpty();
        held.unlock();
        assertThat(lock(LONG, Duration.ZERO)).isPresent();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void lockAtMostForEndsALockNobodyUnlocked(TestDatabase database) {
        on(database);
        lock(Duration.ofMillis(500), Duration.ZERO).orElseThrow();
        assertThat(lock(LONG, Duration.ZERO)).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> lock(LONG, Duration.ZERO).isPresent());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void lockAtLeastForKeepsAnUnlockedLockHeldUntilThatLongAfterItsAcquisition(TestDatabase database) {
        on(database);
        SimpleLock held = lock(LONG, Duration.ofSeconds(1)).orElseThrow();
        LockRecord acquired = repository.find(name).orElseThrow();
        held.unlock();
        assertThat(repository.find(name)).map(LockRecord::expiresAt)
                .contains(acquired.acquiredAt().plusSeconds(1));
        assertThat(lock(LONG, Duration.ZERO)).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> lock(LONG, Duration.ZERO).isPresent());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void extendRenewsTheLockAndRetiresTheOldHandle(TestDatabase database) {
        on(database);
        SimpleLock first = lock(Duration.ofMillis(500), Duration.ZERO).orElseThrow();
        Instant firstExpiry = repository.find(name).orElseThrow().expiresAt();
        SimpleLock extended = first.extend(LONG, Duration.ZERO).orElseThrow();
        LockRecord renewed = repository.find(name).orElseThrow();
        assertThat(renewed.expiresAt()).isAfter(firstExpiry.plusSeconds(20));
        assertThatThrownBy(first::unlock).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SimpleLock.unlock() on '" + name + "'").hasMessageContaining("already");
        assertThatThrownBy(() -> first.extend(LONG, Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        assertThat(lock(LONG, Duration.ZERO)).as("still held, past the first lockAtMostFor").isEmpty();
        extended.unlock();
        assertThat(lock(LONG, Duration.ZERO)).isPresent();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void extendKeepsTheLockUntilTheNewLockAtLeastForFromTheExtension(TestDatabase database) {
        on(database);
        SimpleLock first = lock(LONG, Duration.ZERO).orElseThrow();
        SimpleLock extended = first.extend(LONG, Duration.ofSeconds(2)).orElseThrow();
        LockRecord renewed = repository.find(name).orElseThrow();
        Instant renewedAt = renewed.expiresAt().minus(LONG);
        extended.unlock();
        Instant heldUntil = repository.find(name).orElseThrow().expiresAt();
        assertThat(heldUntil).as("lockAtLeastFor from the extension, rounded up to the store's milliseconds")
                .isBetween(renewedAt.plusSeconds(2), renewedAt.plusSeconds(2).plusMillis(1));
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aHolderWhoseLockRanOutCanNeitherExtendNorUnlockItsSuccessorsLock(TestDatabase database) {
        on(database);
        SimpleLock late = lock(Duration.ofMillis(300), Duration.ZERO).orElseThrow();
        SimpleLock successor = await().atMost(Duration.ofSeconds(5)).until(() -> lock(LONG, Duration.ZERO),
                Optional::isPresent).orElseThrow();
        assertThat(late.extend(LONG, Duration.ZERO)).isEmpty();
        late.unlock();
        assertThat(lock(LONG, Duration.ZERO)).as("the successor's lock is untouched").isEmpty();
        successor.unlock();
        assertThat(lock(LONG, Duration.ZERO)).isPresent();
    }
}

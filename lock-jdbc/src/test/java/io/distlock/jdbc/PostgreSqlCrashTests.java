package io.distlock.jdbc;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LockRecord;
import io.distlock.core.LockResult;
import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.jdbc.dialect.LockDialects;
import io.distlock.testsupport.PrivatePostgres;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kills a PostgreSQL server of the test's own ({@code pg_ctl stop -m immediate}, what a power cut leaves on disk
 * short of the OS cache) and checks what survives: every acknowledged acquisition, tokens that never go back, and
 * releases that, committed without waiting for the WAL flush, are either kept or lost with the lock still held by its
 * old owner until its TTL. Runs only with {@code -Ppg-crash} (tag {@code pg-crash}); fails rather than skips when
 * {@code DISTLOCK_TEST_REQUIRE} names PostgreSQL and no {@code initdb} can be found.
 */
@Tag("pg-crash")
class PostgreSqlCrashTests {

    private static final LockDialect DIALECT = LockDialects.byName("postgresql");

    private static final LockTableName TABLE = LockTableName.DEFAULT;

    private static final int WORKERS = 4;

    private static final int ROUNDS_BEFORE_CRASH = 40;

    private static final Duration LOAD_TTL = Duration.ofMinutes(1);

    private static final Duration QUIET_TTL = Duration.ofSeconds(4);

    private static final int QUIET_LOCKS = 12;

    @Test
    void acknowledgedAcquisitionsSurviveACrashAndLostReleasesLeaveTheLockWithItsOldOwnerUntilItsTtl()
            throws Exception {
        Path bin = PrivatePostgres.binaries();
        if (bin == null) {
            String problem = "no PostgreSQL initdb found (DISTLOCK_TEST_POSTGRESQL_BIN, /usr/lib/postgresql/*/bin, "
                    + "PATH) for a private cluster";
            if (TestDatabase.POSTGRESQL.required()) {
                Assertions.fail(problem + " but DISTLOCK_TEST_REQUIRE demands PostgreSQL");
            }
            Assumptions.abort(problem + ": skipped");
        }
        try (PrivatePostgres cluster = PrivatePostgres.start(bin)) {
            try (HikariDataSource pool = cluster.openPool(WORKERS + 2)) {
                createLockTable(pool);
            }
            crashUnderLoad(cluster);
            crashRightAfterReleases(cluster);
        }
    }

    /**
     * Workers take and give back a resource each, round after round, until the server dies under them; after the
     * restart every acknowledged acquisition must be found, unchanged or followed by a later one.
     */
    private void crashUnderLoad(PrivatePostgres cluster) throws Exception {
        List<Worker> workers = new ArrayList<>();
        try (HikariDataSource pool = cluster.openPool(WORKERS + 2)) {
            JdbcLockRepository repository = repository(pool);
            ExecutorService threads = Executors.newFixedThreadPool(WORKERS);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int i = 0; i < WORKERS; i++) {
                    Worker worker = new Worker(repository, "crash:load:" + i);
                    workers.add(worker);
                    running.add(threads.submit(worker));
                }
                await().atMost(Duration.ofSeconds(60)).until(
                        () -> workers.stream().allMatch(w -> w.rounds >= ROUNDS_BEFORE_CRASH || w.failure != null));
                assertThat(workers).allSatisfy(w -> assertThat(w.failure).as("before the crash").isNull());
                cluster.crash();
                for (Future<?> future : running) {
                    future.get(30, TimeUnit.SECONDS);
                }
            }
            finally {
                threads.shutdownNow();
            }
        }
        cluster.startServer();
        try (HikariDataSource pool = cluster.openPool(2)) {
            JdbcLockRepository repository = repository(pool);
            long sequence = lastSequenceValue(pool);
            int releasesLost = 0;
            for (Worker worker : workers) {
                LockRecord acknowledged = worker.acquired;
                assertThat(acknowledged).as("%s acquired before the crash", worker.resource).isNotNull();
                LockRecord row = row(pool, worker.resource).orElseThrow(
                        () -> new AssertionError(worker.resource + ": the row of an acknowledged acquisition is gone"));
                assertThat(sequence).as("the sequence after the restart").isGreaterThanOrEqualTo(row.token());
                if (row.token() == acknowledged.token()) {
                    assertThat(row.owner()).as("%s: owner of the acknowledged acquisition", worker.resource)
                            .isEqualTo(acknowledged.owner());
                    assertThat(row.acquiredAt()).isEqualTo(acknowledged.acquiredAt());
                    assertThat(row.expiresAt()).isBeforeOrEqualTo(acknowledged.expiresAt());
                    if (worker.released && row.expiresAt().equals(acknowledged.expiresAt())) {
                        releasesLost++;
                    }
                }
                else {
                    // Only the acquisition in flight at the crash may have committed unacknowledged.
                    assertThat(row.token()).as("%s: token after the restart", worker.resource)
                            .isGreaterThan(acknowledged.token());
                    assertThat(worker.inFlightAcquire).as("%s: an acquisition in flight at the crash",
                            worker.resource).isNotNull();
                    assertThat(row.owner()).isEqualTo(worker.inFlightAcquire);
                }
                assertNextOwner(repository, row);
            }
            System.out.printf("CRASH under load: %d workers, %s rounds, %d acknowledged releases lost%n", WORKERS,
                    workers.stream().map(w -> String.valueOf(w.rounds)).toList(), releasesLost);
        }
    }

    /**
     * Takes locks durably, gives them back without waiting for the flush and kills the server at once: each lock is
     * then released, or still its old owner's with the same token until its TTL, and a new owner then takes it with a
     * larger token.
     */
    private void crashRightAfterReleases(PrivatePostgres cluster) throws Exception {
        List<LockRecord> released = new ArrayList<>();
        try (HikariDataSource pool = cluster.openPool(2)) {
            JdbcLockRepository repository = repository(pool);
            List<LockRecord> acquired = new ArrayList<>();
            for (int i = 0; i < QUIET_LOCKS; i++) {
                acquired.add(repository.acquire("crash:quiet:" + i, owner(), QUIET_TTL).orElseThrow());
            }
            for (LockRecord record : acquired) {
                assertThat(repository.release(record.resource(), record.owner())).isEqualTo(LockResult.APPLIED);
                released.add(record);
            }
            cluster.crash();
        }
        cluster.startServer();
        try (HikariDataSource pool = cluster.openPool(2)) {
            JdbcLockRepository repository = repository(pool);
            long sequence = lastSequenceValue(pool);
            List<LockRecord> stillHeld = new ArrayList<>();
            for (LockRecord record : released) {
                LockRecord row = row(pool, record.resource()).orElseThrow();
                assertThat(row.owner()).isEqualTo(record.owner());
                assertThat(row.token()).isEqualTo(record.token()).isLessThanOrEqualTo(sequence);
                assertThat(row.acquiredAt()).isEqualTo(record.acquiredAt());
                if (row.expiresAt().equals(record.expiresAt())) {
                    // The release was lost: the lock stays its old owner's until its TTL.
                    assertThat(repository.acquire(record.resource(), owner(), QUIET_TTL)).isEmpty();
                    assertThat(repository.find(record.resource())).contains(row);
                    stillHeld.add(record);
                }
                else {
                    assertThat(row.expiresAt()).isBefore(record.expiresAt());
                }
            }
            for (LockRecord record : released) {
                LockRecord next = await().atMost(QUIET_TTL.plusSeconds(10)).pollInterval(Duration.ofMillis(50))
                        .until(() -> repository.acquire(record.resource(), owner(), QUIET_TTL), Optional::isPresent)
                        .orElseThrow();
                assertThat(next.token()).isGreaterThan(record.token());
                assertThat(next.acquiredAt()).isAfterOrEqualTo(stillHeld.contains(record) ? record.expiresAt()
                        : Instant.EPOCH);
            }
            System.out.printf("CRASH right after %d releases: %d lost (held until their TTL), %d kept%n",
                    released.size(), stillHeld.size(), released.size() - stillHeld.size());
        }
    }

    /** A new owner takes a released lock with a larger token, and cannot take one still held. */
    private static void assertNextOwner(JdbcLockRepository repository, LockRecord row) {
        Optional<LockRecord> next = repository.acquire(row.resource(), owner(), LOAD_TTL);
        if (next.isPresent()) {
            assertThat(next.get().token()).isGreaterThan(row.token());
            assertThat(next.get().acquiredAt()).isAfterOrEqualTo(row.expiresAt());
        }
        else {
            assertThat(repository.find(row.resource())).contains(row);
        }
    }

    private static JdbcLockRepository repository(DataSource pool) {
        return JdbcLockRepository.builder(pool).dialect(DIALECT).build();
    }

    private static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    private static void createLockTable(DataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection()) {
            ByteArrayResource script = new ByteArrayResource(
                    LockSchema.script(DIALECT, TABLE).getBytes(StandardCharsets.UTF_8));
            ScriptUtils.executeSqlScript(connection, new EncodedResource(script, StandardCharsets.UTF_8));
        }
    }

    private static long lastSequenceValue(DataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT last_value FROM " + TABLE.sequence())) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Optional<LockRecord> row(DataSource pool, String resource) throws SQLException {
        try (Connection connection = pool.getConnection(); var statement = connection.prepareStatement(
                "SELECT " + LockDialect.COLUMNS + " FROM " + TABLE + " WHERE resource = ?")) {
            statement.setString(1, resource);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() ? Optional.of(new LockRecord(rs.getString(1), rs.getString(2), rs.getLong(3),
                        DIALECT.readInstant(rs, 4), DIALECT.readInstant(rs, 5))) : Optional.empty();
            }
        }
    }

    /**
     * Takes and gives back one resource, round after round, until a statement fails (the server died), remembering
     * the last acknowledged acquisition, whether its release was acknowledged, and the acquisition in flight.
     */
    private static final class Worker implements Runnable {

        private final JdbcLockRepository repository;

        private final String resource;

        private volatile int rounds;

        private volatile @Nullable LockRecord acquired;

        private volatile boolean released;

        private volatile @Nullable String inFlightAcquire;

        private volatile @Nullable RuntimeException failure;

        Worker(JdbcLockRepository repository, String resource) {
            this.repository = repository;
            this.resource = resource;
        }

        @Override
        public void run() {
            try {
                while (true) {
                    String owner = owner();
                    inFlightAcquire = owner;
                    LockRecord record = repository.acquire(resource, owner, LOAD_TTL).orElseThrow(
                            () -> new IllegalStateException(resource + " not acquired by its only worker"));
                    acquired = record;
                    released = false;
                    inFlightAcquire = null;
                    LockResult result = repository.release(resource, owner);
                    if (result != LockResult.APPLIED) {
                        throw new IllegalStateException(resource + " release answered " + result);
                    }
                    released = true;
                    rounds++;
                }
            }
            catch (IllegalStateException ex) {
                failure = ex;
            }
            catch (RuntimeException serverGone) {
                // The crash: the statement in flight may or may not have committed.
            }
        }
    }
}

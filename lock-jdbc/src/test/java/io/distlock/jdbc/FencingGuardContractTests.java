package io.distlock.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import io.distlock.jdbc.dialect.LockDialect;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The fencing guard on a real database: first, higher, equal and lower tokens; the check commits and rolls back with
 * the caller's transaction; a stale writer queued behind a newer one is refused; and a race of many writers arriving
 * out of token order, whose accepted tokens strictly increase in the commit order of the protected resource. Each
 * database is a subclass of a few lines.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FencingGuardContractTests {

    private String fenceTable;

    /** The protected resource of the race: one row per name, whose version counts committed writes in order. */
    private String protectedTable;

    /** Every committed write of the race: the protected row's version it produced, and its token. */
    private String writesTable;

    private FencingGuard fence;

    /** Every refusal the guard told, as {@code name:token}. */
    private final List<String> refusals = new java.util.concurrent.CopyOnWriteArrayList<>();

    protected abstract TestDatabase database();

    @BeforeAll
    void createTables() {
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        fenceTable = "fence_" + suffix;
        protectedTable = "fenced_value_" + suffix;
        writesTable = "fenced_write_" + suffix;
        database().executeScript(FencingSchema.script(database().dialect(), fenceTable));
        database().execute("CREATE TABLE " + protectedTable
                + " (name VARCHAR(255) NOT NULL PRIMARY KEY, token BIGINT NOT NULL, version BIGINT NOT NULL)");
        database().execute("CREATE TABLE " + writesTable
                + " (name VARCHAR(255) NOT NULL, version BIGINT NOT NULL, token BIGINT NOT NULL, "
                + "PRIMARY KEY (name, version))");
        fence = FencingGuard.builder(dataSource()).tableName(fenceTable).dialect(database().dialect())
                .listener((name, token) -> {
                    throw new IllegalStateException("a failing listener does not stop the others");
                })
                .listener((name, token) -> refusals.add(name + ":" + token)).build();
    }

    @AfterAll
    void dropTables() {
        for (String table : new String[] {fenceTable, protectedTable, writesTable}) {
            if (table != null) {
                database().execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private DataSource dataSource() {
        return database().dataSource();
    }

    private static String name() {
        return "ledger:" + UUID.randomUUID();
    }

    @Test
    void firstWriteOfANameIsAcceptedAndTheFenceHoldsItsToken() throws Exception {
        String name = name();
        assertThat(fence.lastToken(name)).isEmpty();
        assertThat(admitAndCommit(name, 7)).isEqualTo(FencingResult.ACCEPTED);
        assertThat(fence.lastToken(name)).hasValue(7);
    }

    @Test
    void higherAndEqualTokensAreAcceptedAndALowerOneIsRefusedWithoutChangingTheFence() throws Exception {
        String name = name();
        assertThat(admitAndCommit(name, 10)).isEqualTo(FencingResult.ACCEPTED);
        assertThat(admitAndCommit(name, 10)).as("same holder writing again").isEqualTo(FencingResult.ACCEPTED);
        assertThat(admitAndCommit(name, 12)).isEqualTo(FencingResult.ACCEPTED);
        assertThat(admitAndCommit(name, 11)).as("stale holder").isEqualTo(FencingResult.REFUSED);
        assertThat(admitAndCommit(name, 0)).isEqualTo(FencingResult.REFUSED);
        assertThat(fence.lastToken(name)).hasValue(12);
        assertThat(refusals).as("told of each refusal, not of acceptances").filteredOn(r -> r.startsWith(name))
                .containsExactly(name + ":11", name + ":0");
        assertThat(FencingResult.ACCEPTED.accepted()).isTrue();
        assertThat(FencingResult.REFUSED.accepted()).isFalse();
    }

    @Test
    void theFenceMovesOnlyWhenTheCallersTransactionCommits() throws Exception {
        String name = name();
        admitAndCommit(name, 3);
        try (Connection connection = dataSource().getConnection()) {
            connection.setAutoCommit(false);
            assertThat(fence.admit(connection, name, 9)).isEqualTo(FencingResult.ACCEPTED);
            assertThat(fence.lastToken(name)).as("seen from another connection before commit").hasValue(3);
            connection.rollback();
        }
        assertThat(fence.lastToken(name)).hasValue(3);
        assertThat(admitAndCommit(name, 4)).as("the rolled-back token left no trace").isEqualTo(FencingResult.ACCEPTED);
    }

    @Test
    void aConnectionInAutoCommitModeIsRejectedBeforeAnySql() throws Exception {
        String name = name();
        try (Connection connection = dataSource().getConnection()) {
            connection.setAutoCommit(true);
            assertThatIllegalStateException().isThrownBy(() -> fence.admit(connection, name, 1))
                    .withMessageContaining("auto-commit").withMessageContaining(name);
        }
        assertThat(fence.lastToken(name)).isEmpty();
    }

    @Test
    void badNamesTokensAndTableNamesAreRejected() throws Exception {
        try (Connection connection = dataSource().getConnection()) {
            connection.setAutoCommit(false);
            assertThatIllegalArgumentException().isThrownBy(() -> fence.admit(connection, " ", 1))
                    .withMessageContaining("blank");
            assertThatIllegalArgumentException().isThrownBy(() -> fence.admit(connection, "x".repeat(256), 1))
                    .withMessageContaining("255");
            assertThatIllegalArgumentException().isThrownBy(() -> fence.admit(connection, name(), -1))
                    .withMessageContaining("-1");
            connection.rollback();
        }
        assertThatIllegalArgumentException().isThrownBy(() -> FencingGuard.builder(dataSource()).tableName("x; DROP"))
                .withMessageContaining("x; DROP");
        assertThatIllegalArgumentException().isThrownBy(() -> FencingSchema.script(database().dialect(), "a-b"));
    }

    @Test
    void missingTableFailsTheSchemaCheckNamingTheScript() {
        FencingGuard missing = FencingGuard.builder(dataSource()).tableName("no_such_fence_table").build();
        assertThatIllegalStateException().isThrownBy(missing::verifySchema)
                .withMessageContaining("no_such_fence_table").withMessageContaining("io/distlock/jdbc/dialect/fencing-schema-");
        fence.verifySchema();
    }

    @Test
    void aDialectImplementedOutsideTheLibraryBringsItsOwnFencingStatementAndScript() throws Exception {
        LockDialect database = database().dialect();
        List<String> asked = new ArrayList<>();
        LockDialect own = (LockDialect) Proxy.newProxyInstance(LockDialect.class.getClassLoader(),
                new Class<?>[] {LockDialect.class}, (proxy, method, args) -> {
                    asked.add(method.getName());
                    try {
                        return method.invoke(database, args);
                    }
                    catch (InvocationTargetException ex) {
                        throw ex.getCause();
                    }
                });
        assertThat(FencingSchema.script(own, fenceTable)).isEqualTo(FencingSchema.script(database, fenceTable));
        assertThat(asked).contains("fencingSchemaLocation");
        FencingGuard guard = FencingGuard.builder(dataSource()).tableName(fenceTable).dialect(own).build();
        assertThat(asked).contains("fencingAdmit");
        String name = name();
        try (Connection connection = dataSource().getConnection()) {
            connection.setAutoCommit(false);
            assertThat(guard.admit(connection, name, 3)).isEqualTo(FencingResult.ACCEPTED);
            assertThat(guard.admit(connection, name, 2)).isEqualTo(FencingResult.REFUSED);
            connection.commit();
        }
        assertThat(fence.lastToken(name)).hasValue(3);
    }

    @Test
    void insideASpringTransactionTheCheckCommitsWithTheWriteAndOutsideOneItIsRejected() {
        String name = name();
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
        JdbcTemplate jdbc = new JdbcTemplate(dataSource());
        jdbc.update("INSERT INTO " + protectedTable + " (name, token, version) VALUES (?, 0, 0)", name);
        transaction.executeWithoutResult(status -> {
            assertThat(fence.admit(name, 5)).isEqualTo(FencingResult.ACCEPTED);
            jdbc.update("UPDATE " + protectedTable + " SET token = 5, version = version + 1 WHERE name = ?", name);
            status.setRollbackOnly();
        });
        assertThat(fence.lastToken(name)).isEmpty();
        assertThat(jdbc.queryForObject("SELECT version FROM " + protectedTable + " WHERE name = ?", Long.class, name))
                .isZero();
        transaction.executeWithoutResult(status -> assertThat(fence.admit(name, 5)).isEqualTo(FencingResult.ACCEPTED));
        transaction.executeWithoutResult(status -> assertThat(fence.admit(name, 4)).isEqualTo(FencingResult.REFUSED));
        assertThat(fence.lastToken(name)).hasValue(5);
        assertThatIllegalStateException().isThrownBy(() -> fence.admit(name, 6))
                .withMessageContaining("outside a transaction");
    }

    @Test
    void aStaleWriterQueuedBehindANewerOneIsRefusedOnceTheNewerCommits() throws Exception {
        assertThat(writerQueuedBehindAnother(20, 19)).isEqualTo(FencingResult.REFUSED);
    }

    @Test
    void aNewerWriterQueuedBehindAStaleOneIsAcceptedOnceTheStaleCommits() throws Exception {
        assertThat(writerQueuedBehindAnother(19, 20)).isEqualTo(FencingResult.ACCEPTED);
    }

    /**
     * Lets a first writer take the fence row and hold its transaction open while a second writer's check runs and
     * waits for the row; returns the second writer's decision once the first committed.
     */
    private FencingResult writerQueuedBehindAnother(long firstToken, long secondToken) throws Exception {
        String name = name();
        admitAndCommit(name, 1);
        ExecutorService second = Executors.newSingleThreadExecutor();
        try (Connection first = dataSource().getConnection()) {
            first.setAutoCommit(false);
            assertThat(fence.admit(first, name, firstToken)).isEqualTo(FencingResult.ACCEPTED);
            CountDownLatch started = new CountDownLatch(1);
            Future<FencingResult> queued = second.submit(() -> {
                started.countDown();
                return admitAndCommit(name, secondToken);
            });
            started.await();
            Thread.sleep(300);
            assertThat(queued).as("waits for the first writer's row lock").isNotDone();
            first.commit();
            FencingResult result = queued.get(30, TimeUnit.SECONDS);
            assertThat(fence.lastToken(name)).hasValue(Math.max(firstToken, secondToken));
            return result;
        }
        finally {
            second.shutdownNow();
        }
    }

    @Test
    void sixteenWritersArrivingOutOfTokenOrderCommitAcceptedTokensInStrictlyIncreasingOrder() throws Exception {
        String name = name();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource());
        jdbc.update("INSERT INTO " + protectedTable + " (name, token, version) VALUES (?, 0, 0)", name);
        // Tokens are handed out in order, as the lock's sequence does, and writers arrive late by random delays.
        ConcurrentLinkedQueue<Long> pending = new ConcurrentLinkedQueue<>(
                LongStream.rangeClosed(1, 800).boxed().toList());
        ConcurrentLinkedQueue<Long> refused = new ConcurrentLinkedQueue<>();
        AtomicInteger retries = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                writers.add(pool.submit(() -> {
                    for (Long token = pending.poll(); token != null; token = pending.poll()) {
                        Thread.sleep(ThreadLocalRandom.current().nextInt(3));
                        while (!fencedWrite(name, token, refused)) {
                            retries.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> writer : writers) {
                writer.get(5, TimeUnit.MINUTES);
            }
        }
        finally {
            pool.shutdownNow();
        }
        List<Long> committed = jdbc.queryForList(
                "SELECT token FROM " + writesTable + " WHERE name = ? ORDER BY version", Long.class, name);
        assertThat(committed).as("accepted tokens in commit order").isSorted().doesNotHaveDuplicates();
        assertThat(committed).last().isEqualTo(800L);
        assertThat(committed.size() + refused.size()).isEqualTo(800);
        assertThat(refused).as("every refused token is below one accepted before").allMatch(t -> t < 800);
        assertThat(refused).as("late writers were refused").isNotEmpty();
        assertThat(committed).as("writers in order were accepted").hasSizeGreaterThan(80);
        assertThat(jdbc.queryForObject("SELECT version FROM " + protectedTable + " WHERE name = ?", Long.class, name))
                .isEqualTo((long) committed.size());
        assertThat(fence.lastToken(name)).hasValue(800);
        System.out.printf("%s fencing race: %d accepted, %d refused, %d transactions retried%n", database(),
                committed.size(), refused.size(), retries.get());
    }

    /**
     * One writer's transaction: the fenced check, then, when accepted, the protected write and its record.
     *
     * @return {@code false} when the database rolled the transaction back for a transient reason, to be retried
     */
    private boolean fencedWrite(String name, long token, ConcurrentLinkedQueue<Long> refused) throws SQLException {
        try (Connection connection = dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try {
                if (fence.admit(connection, name, token).accepted()) {
                    if (ThreadLocalRandom.current().nextInt(4) == 0) {
                        Thread.sleep(1);
                    }
                    update(connection, "UPDATE " + protectedTable
                            + " SET token = ?, version = version + 1 WHERE name = ?", token, name);
                    long version;
                    try (PreparedStatement statement = connection.prepareStatement(
                            "SELECT version FROM " + protectedTable + " WHERE name = ?")) {
                        statement.setString(1, name);
                        try (ResultSet rs = statement.executeQuery()) {
                            rs.next();
                            version = rs.getLong(1);
                        }
                    }
                    update(connection, "INSERT INTO " + writesTable + " (name, version, token) VALUES (?, ?, ?)", name,
                            version, token);
                    connection.commit();
                }
                else {
                    connection.commit();
                    refused.add(token);
                }
                return true;
            }
            catch (SQLException ex) {
                connection.rollback();
                DataAccessException translated = new SQLErrorCodeSQLExceptionTranslator(dataSource())
                        .translate("fenced write", null, ex);
                if (translated instanceof TransientDataAccessException) {
                    return false;
                }
                throw ex;
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
    }

    private FencingResult admitAndCommit(String name, long token) throws SQLException {
        try (Connection connection = dataSource().getConnection()) {
            connection.setAutoCommit(false);
            FencingResult result = fence.admit(connection, name, token);
            connection.commit();
            return result;
        }
    }

    private static void update(Connection connection, String sql, Object... args) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            statement.executeUpdate();
        }
    }
}

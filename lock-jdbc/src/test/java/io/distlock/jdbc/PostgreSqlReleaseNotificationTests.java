package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;


import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.DelegatingLockRepository;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.TimeSource;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.datasource.DelegatingDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Releases on PostgreSQL notify the waiters of other processes, with real threads on the real server. Every
 * "process" here has a pool, a repository and a manager of its own, so the same-manager wake-up cannot reach across;
 * the waiter polls at most every 30 s, and the lock is released right after its tenth attempt, when its next poll is
 * at least 5.12 s away (the backoff has reached 10.24 s, jittered down to half at most). A waiter that takes the lock
 * well within that was woken by the notification.
 */
class PostgreSqlReleaseNotificationTests {

    private static final TestDatabase DB = TestDatabase.POSTGRESQL;

    private static final Duration TTL = Duration.ofMinutes(2);

    private static final Duration MAX_POLL = Duration.ofSeconds(30);

    /** The attempt after which the next poll is at least 5.12 s away. */
    private static final int LATE_ATTEMPT = 10;

    /** Clearly below the 5.12 s to the waiter's next poll. */
    private static final Duration SOON = Duration.ofSeconds(2);

    private static LockTableName table;

    private final List<AutoCloseable> closing = new ArrayList<>();

    private final Events events = new Events();

    private Process holder;

    @BeforeAll
    static void createTable() {
        table = DB.createLockTable();
    }

    @AfterAll
    static void dropTable() {
        DB.dropLockTable(table);
    }

    @BeforeEach
    void startHolder() {
        events.start();
        logger().addAppender(events);
        holder = process(true, MAX_POLL, new DelegatingDataSource());
    }

    @AfterEach
    void close() throws Exception {
        logger().detachAppender(events);
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void aWaiterInAnotherProcessTakesTheLockSoonAfterTheReleaseInsteadOfAtItsNextPoll() throws Exception {
        String resource = resource();
        Lease held = holder.manager.tryAcquire(resource, TTL).orElseThrow();
        Process waiter = process(true, MAX_POLL, new DelegatingDataSource());
        ReleaseOnAttempt hook = waiter.releaseOnAttempt(LATE_ATTEMPT, held);
        CompletableFuture<Lease> waited = waiter.waitFor(resource);

        await().atMost(Duration.ofSeconds(30)).until(hook::released);
        await().atMost(SOON).until(waited::isDone);
        assertThat(waited.get().resource()).isEqualTo(resource);
        assertThat(listeners(waiter)).hasSize(1);
    }

    @Test
    void withoutNotificationsTheWaiterOfAnotherProcessWaitsForItsNextPoll() throws Exception {
        String resource = resource();
        Lease held = holder.manager.tryAcquire(resource, TTL).orElseThrow();
        Process waiter = process(false, MAX_POLL, new DelegatingDataSource());
        ReleaseOnAttempt hook = waiter.releaseOnAttempt(LATE_ATTEMPT, held);
        CompletableFuture<Lease> waited = waiter.waitFor(resource);

        await().atMost(Duration.ofSeconds(30)).until(hook::released);
        await().during(SOON).atMost(SOON.plusSeconds(1)).until(() -> !waited.isDone());
        assertThat(listeners(waiter)).isEmpty();
    }

    @Test
    void oneListeningConnectionPerManagerWhateverTheNumberOfWaitersGivenBackWhenTheManagerCloses() {
        List<String> resources = List.of(resource(), resource(), resource());
        resources.forEach(resource -> holder.manager.tryAcquire(resource, TTL).orElseThrow());
        Process waiter = process(true, MAX_POLL, new DelegatingDataSource());
        for (int i = 0; i < 8; i++) {
            waiter.waitFor(resources.get(i % resources.size()));
        }

        // Once the waiters sit in their pauses, the listener is the only connection the waiters' manager holds.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(listeners(waiter)).hasSize(1);
            assertThat(waiter.pool.getHikariPoolMXBean().getActiveConnections()).isEqualTo(1);
        });
        waiter.manager.close();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(listeners(waiter)).isEmpty();
            assertThat(waiter.pool.getHikariPoolMXBean().getActiveConnections()).isZero();
        });
    }

    @Test
    void aTerminatedListenerLeavesWaitersPollingTellsItOnceAndComesBack() throws Exception {
        ListenerGate gate = new ListenerGate();
        Process waiter = process(true, MAX_POLL, gate);
        String first = resource();
        Lease held = holder.manager.tryAcquire(first, TTL).orElseThrow();
        CompletableFuture<Lease> polled = waiter.waitFor(first);
        await().atMost(Duration.ofSeconds(10)).until(() -> listeners(waiter).size() == 1);
        int killed = listeners(waiter).get(0);

        gate.closed = true;
        terminate(killed);
        await().atMost(Duration.ofSeconds(10)).until(() -> gate.refused.get() >= 3);
        held.release();
        // Nothing tells the waiter: it finds the lock free at a poll.
        await().atMost(MAX_POLL.plusSeconds(10)).until(polled::isDone);
        polled.get().release();

        gate.closed = false;
        await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> assertThat(listeners(waiter))
                .hasSize(1).doesNotContain(killed));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(events.at(Level.INFO)).hasSize(1));
        assertThat(events.at(Level.WARN)).singleElement().asString().contains(table.notificationChannel())
                .contains("poll");

        // Listening again: the next release wakes a waiter long before its next poll.
        String second = resource();
        Lease again = holder.manager.tryAcquire(second, TTL).orElseThrow();
        ReleaseOnAttempt hook = waiter.releaseOnAttempt(LATE_ATTEMPT, again);
        CompletableFuture<Lease> notified = waiter.waitFor(second);
        await().atMost(Duration.ofSeconds(30)).until(hook::released);
        await().atMost(SOON).until(notified::isDone);
    }

    @Test
    void aReleaseNotifiesOnlyWhenItCommitsAndFreesTheLock() throws Exception {
        JdbcLockRepository repository = JdbcLockRepository.builder(DB.dataSource()).tableName(table.value()).build();
        String rolledBack = resource();
        String minHoldAhead = resource();
        String freed = resource();
        for (String resource : List.of(rolledBack, minHoldAhead, freed)) {
            repository.acquire(resource, "owner-" + resource, TTL).orElseThrow();
        }
        TimedStatement release = new LockStatements(DB.dialect(), table, TimeSource.DATABASE,
                sql -> sql, false, table.notificationChannel()).release;
        List<String> heard = new ArrayList<>();
        try (Connection listening = DB.dataSource().getConnection()) {
            try (Statement statement = listening.createStatement()) {
                statement.execute("LISTEN \"" + table.notificationChannel() + "\"");
            }
            try (Connection other = DB.dataSource().getConnection()) {
                other.setAutoCommit(false);
                try (PreparedStatement statement = other.prepareStatement(release.sql())) {
                    statement.setLong(1, 0);
                    statement.setString(2, rolledBack);
                    statement.setString(3, "owner-" + rolledBack);
                    try (ResultSet rs = statement.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                    }
                }
                other.rollback();
                other.setAutoCommit(true);
            }
            assertThat(repository.release(minHoldAhead, "owner-" + minHoldAhead, Duration.ofMinutes(1)))
                    .isEqualTo(LockResult.APPLIED);
            assertThat(repository.release(freed, "owner-" + freed)).isEqualTo(LockResult.APPLIED);

            // Notifications come in commit order: once the last release's has come, any earlier one would have too.
            PGConnection pg = listening.unwrap(PGConnection.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                PGNotification[] notifications = pg.getNotifications(100);
                for (PGNotification notification : notifications != null ? notifications : new PGNotification[0]) {
                    assertThat(notification.getName()).isEqualTo(table.notificationChannel());
                    heard.add(notification.getParameter());
                }
                return heard.contains(freed);
            });
            try (Statement statement = listening.createStatement()) {
                statement.execute("UNLISTEN *");
            }
        }
        assertThat(heard).containsExactly(freed);
        assertThat(repository.find(rolledBack)).isPresent();
        assertThat(repository.find(minHoldAhead)).isPresent();
    }

    private static String resource() {
        return "notify-" + UUID.randomUUID();
    }

    private Process process(boolean notify, Duration maxPoll, DelegatingDataSource wrapper) {
        String name = "distlock-notify-" + UUID.randomUUID().toString().substring(0, 8);
        HikariConfig config = DB.poolConfig(name, 12);
        config.setMinimumIdle(0);
        config.addDataSourceProperty("ApplicationName", name);
        HikariDataSource pool = new HikariDataSource(config);
        closing.add(pool);
        wrapper.setTargetDataSource(pool);
        HookedRepository repository = new HookedRepository(JdbcLockRepository.builder(wrapper)
                .tableName(table.value()).notifyWaiters(notify).build());
        LockManager manager = LockManager.builder(repository).maxPollInterval(maxPoll).build();
        closing.add(manager);
        Process process = new Process(name, pool, repository, manager);
        closing.add(process::interruptWaiters);
        return process;
    }

    /** The backends of a process that listen for notifications: their last statement was a {@code LISTEN}. */
    private static List<Integer> listeners(Process process) throws SQLException {
        try (Connection connection = DB.dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT pid FROM pg_stat_activity "
                        + "WHERE application_name = ? AND query LIKE 'LISTEN %'")) {
            statement.setString(1, process.name);
            try (ResultSet rs = statement.executeQuery()) {
                List<Integer> pids = new ArrayList<>();
                while (rs.next()) {
                    pids.add(rs.getInt(1));
                }
                return pids;
            }
        }
    }

    private static void terminate(int pid) throws SQLException {
        try (Connection connection = DB.dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
            statement.setInt(1, pid);
            statement.execute();
        }
    }

    private static ch.qos.logback.classic.Logger logger() {
        return (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(PostgreSqlReleaseFeed.class);
    }

    /** What stands for one process: a pool, a repository and a manager of its own. */
    private static final class Process {

        final String name;

        final HikariDataSource pool;

        final HookedRepository repository;

        final LockManager manager;

        final List<Thread> waiters = new CopyOnWriteArrayList<>();

        Process(String name, HikariDataSource pool, HookedRepository repository, LockManager manager) {
            this.name = name;
            this.pool = pool;
            this.repository = repository;
            this.manager = manager;
        }

        /** Waits for the lock on a thread of its own, for up to five minutes. */
        CompletableFuture<Lease> waitFor(String resource) {
            CompletableFuture<Lease> lease = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    Optional<Lease> taken = manager.acquire(resource, TTL, Duration.ofMinutes(5));
                    lease.complete(taken.orElseThrow());
                }
                catch (Throwable ex) {
                    lease.completeExceptionally(ex);
                }
            }, "waiter-" + resource);
            thread.setDaemon(true);
            waiters.add(thread);
            thread.start();
            return lease;
        }

        ReleaseOnAttempt releaseOnAttempt(int attempt, Lease held) {
            ReleaseOnAttempt hook = new ReleaseOnAttempt(attempt, held);
            repository.hook = hook;
            return hook;
        }

        void interruptWaiters() {
            waiters.forEach(Thread::interrupt);
        }
    }

    /** Releases another process's lease right after a waiter's attempt that found it held, in that attempt. */
    private static final class ReleaseOnAttempt {

        private final int attempt;

        private final Lease held;

        private final AtomicInteger failed = new AtomicInteger();

        private volatile boolean released;

        ReleaseOnAttempt(int attempt, Lease held) {
            this.attempt = attempt;
            this.held = held;
        }

        void failedAttempt(String resource) {
            if (resource.equals(held.resource()) && failed.incrementAndGet() == attempt) {
                assertThat(held.release()).isEqualTo(LockResult.APPLIED);
                released = true;
            }
        }

        boolean released() {
            return released;
        }
    }

    /** The repository of a process, telling a hook of every attempt that found the lock held. */
    private static final class HookedRepository extends DelegatingLockRepository {

        private volatile ReleaseOnAttempt hook;

        HookedRepository(LockRepository delegate) {
            super(delegate);
        }

        @Override
        public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
            Optional<LockRecord> acquired = delegate().acquire(resource, owner, ttl);
            ReleaseOnAttempt current = hook;
            if (acquired.isEmpty() && current != null) {
                current.failedAttempt(resource);
            }
            return acquired;
        }
    }

    /** Refuses connections to the listener's thread while closed, as a database that cannot be reached. */
    private static final class ListenerGate extends DelegatingDataSource {

        volatile boolean closed;

        final AtomicInteger refused = new AtomicInteger();

        @Override
        public Connection getConnection() throws SQLException {
            if (closed && Thread.currentThread().getName().startsWith("distlock-notifications")) {
                refused.incrementAndGet();
                throw new SQLTransientConnectionException("refused by the test");
            }
            return super.getConnection();
        }
    }

    /** The feed's log lines. */
    private static final class Events extends AppenderBase<ILoggingEvent> {

        private final List<ILoggingEvent> events = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            events.add(event);
        }

        List<String> at(Level level) {
            return events.stream().filter(event -> event.getLevel() == level).map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }
}

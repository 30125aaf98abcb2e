package io.distlock.torture;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LockRepository;
import io.distlock.core.TimeSource;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.redis.RedisLockRepository;
import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Runs one torture test: resets the workload's tables, starts the worker JVMs, injects faults for the requested time,
 * stops the workers and hands over to the {@link TortureChecker} (locks workload) or the {@link SlotChecker} (slots
 * workload). Exits 0 when every criterion held, 1 when one failed, 2 when the run could not be carried out. With
 * {@code --db redis} the locks are in Redis under a key prefix of the run's own, deleted at the end, and the protected
 * resources in the controller's in-memory H2 database, served to the workers by its TCP server.
 */
public final class TortureController {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private static final Duration STOP_GRACE = Duration.ofSeconds(25);

    /** H2's lock timeout for the controller and the workers, longer than its default for a loaded machine. */
    private static final String H2_SETTINGS = ";LOCK_TIMEOUT=30000";

    private TortureController() {
    }

    /**
     * Runs the test and exits with its status.
     *
     * @param args {@code --db h2|postgresql|mariadb|redis [--workload locks|slots] [--processes 4] [--seconds 60]
     *     [--faults kill,pause,disconnect,skew,pool,rowlock] [--threads 3] [--locks 3] [--ttl-ms 2000]
     *     [--run-dir dir]}; on Redis the faults are {@code kill,pause,disconnect} by default, the slots workload's
     *     {@code kill,pause}, and {@code --locks} is its number of jobs
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        TortureOptions options;
        try {
            options = TortureOptions.parse(Args.parse(args), Path.of("target", "torture"));
        }
        catch (IllegalArgumentException ex) {
            System.err.println("torture: " + ex.getMessage());
            return 2;
        }
        H2TcpServer h2 = null;
        HikariDataSource admin = null;
        WorkerPool workers = null;
        LettuceConnectionFactory redis = null;
        String keyPrefix = "distlock-torture:" + System.currentTimeMillis() + ":";
        try {
            Files.createDirectories(options.runDirectory());
            if (options.database() == TestDatabase.H2) {
                h2 = H2TcpServer.start();
            }
            // The controller's pool: the checker's queries, the rowlock fault's transaction and the probe's acquires.
            admin = adminPool(options.database());
            boolean slots = options.workload() == Workload.SLOTS;
            if (slots) {
                System.out.printf("torture db=%s workload=slots processes=%d jobs=%d period=%dms "
                        + "slot_clock_offsets=±%ds ttl=%dms seconds=%d faults=%s%n  logs in %s%n",
                        options.database().id(), options.processes(), options.locks(),
                        TortureOptions.SLOT_PERIOD.toMillis(), TortureOptions.MAX_SLOT_OFFSET.toSeconds(),
                        options.ttl().toMillis(), options.duration().getSeconds(), options.faultList(),
                        options.runDirectory().toAbsolutePath());
                TortureSchema.resetSlots(admin, options.database());
            }
            else {
                System.out.printf("torture db=%s processes=%d threads=%d locks=%d ttl=%dms statement_timeout=%dms "
                        + "seconds=%d faults=%s%n  logs in %s%n",
                        options.storeId(), options.processes(), options.threads(), options.locks(),
                        options.ttl().toMillis(), TortureOptions.STATEMENT_TIMEOUT.toMillis(),
                        options.duration().getSeconds(), options.faultList(), options.runDirectory().toAbsolutePath());
                TortureSchema.reset(admin, options.database(), options.locks());
            }
            List<String> storeArguments = new ArrayList<>();
            LockView view;
            LockRepository probe = null;
            if (options.store() == LockStore.REDIS) {
                RedisTarget target = RedisTarget.fromEnvironment();
                redis = target.connectionFactory("distlock-torture-controller", Duration.ofSeconds(5));
                RedisLockRepository repository = RedisLockRepository.builder(redis).keyPrefix(keyPrefix).build();
                repository.verifySchema();
                view = LockView.redis(repository, redis, IntStream.range(0, options.locks())
                        .mapToObj(TortureSchema::lockName).toList());
                storeArguments.addAll(List.of("--store", "redis", "--redis-url", target.url(), "--key-prefix",
                        keyPrefix));
                System.out.println("  locks on Redis at " + target + " under " + keyPrefix + "; ledger on H2");
            }
            else {
                view = LockView.jdbc(admin, options.database().dialect(), options.workload().lockTable());
                probe = JdbcLockRepository.builder(admin).tableName(options.workload().lockTable())
                        .dialect(options.database().dialect()).timeSource(TimeSource.DATABASE)
                        .statementTimeout(TortureOptions.STATEMENT_TIMEOUT).build();
            }
            workers = new WorkerPool(options, workerUrl(options.database(), h2), storeArguments);
            WorkerPool started = workers;
            Runtime.getRuntime().addShutdownHook(new Thread(started::destroyAll, "torture-cleanup"));
            workers.startAll(READY_TIMEOUT.toMillis());
            System.out.println("  " + options.processes() + " workers ready; injecting faults for "
                    + options.duration().getSeconds() + " s");
            FaultLog faults = new FaultLog();
            long end = System.nanoTime() + options.duration().toNanos();
            new FaultInjector(options, admin, view, workers, h2, redis, probe, faults).run(end);
            System.out.println("  stopping the workers");
            workers.stopAll(STOP_GRACE.toMillis());
            Set<Long> killed = faults.kills().stream().map(FaultLog.Kill::pid).collect(Collectors.toSet());
            List<WorkerOutcome> outcomes = workers.started().stream().map(w -> new WorkerOutcome(w.name(), w.pid(),
                    w.skewMillis(), w.exitCode(), killed.contains(w.pid()), w.logLines())).toList();
            boolean passed = slots ? new SlotChecker(admin, options, System.out).check(faults, outcomes).passed()
                    : new TortureChecker(admin, options, System.out).check(faults, outcomes).passed();
            return passed ? 0 : 1;
        }
        catch (Exception ex) {
            System.err.println("torture: the run could not be carried out: " + ex);
            ex.printStackTrace();
            return 2;
        }
        finally {
            if (workers != null) {
                workers.destroyAll();
            }
            if (redis != null) {
                try {
                    RedisTarget.deleteKeys(redis, keyPrefix);
                }
                catch (RuntimeException ex) {
                    System.err.println("torture: could not delete the keys under " + keyPrefix + ": " + ex);
                }
                redis.destroy();
            }
            close(admin);
            close(h2);
        }
    }

    /** The controller's pool: for H2 on the in-memory database in this JVM, which the TCP server serves. */
    private static HikariDataSource adminPool(TestDatabase database) {
        HikariConfig config = database.poolConfig("torture-controller", 4);
        if (database == TestDatabase.H2) {
            config.setJdbcUrl(database.url() + H2_SETTINGS);
        }
        config.setConnectionTimeout(10_000);
        return new HikariDataSource(config);
    }

    /** The URL the workers use: for H2 through the TCP server. */
    private static String workerUrl(TestDatabase database, @Nullable H2TcpServer h2) {
        return h2 != null ? database.remoteUrl(h2.port()) + H2_SETTINGS : database.url();
    }

    private static void close(@Nullable AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        }
        catch (Exception ex) {
            System.err.println("torture: closing " + closeable + " failed: " + ex);
        }
    }
}

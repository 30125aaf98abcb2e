package io.distlock.torture;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

/**
 * Runs one torture test: resets the torture tables, starts the worker JVMs, injects faults for the requested time,
 * stops the workers and hands over to the {@link TortureChecker}. Exits 0 when every criterion held, 1 when one
 * failed, 2 when the run could not be carried out.
 */
public final class TortureController {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private static final Duration STOP_GRACE = Duration.ofSeconds(25);

    private TortureController() {
    }

    /**
     * Runs the test and exits with its status.
     *
     * @param args {@code --db h2|postgresql|mariadb [--processes 4] [--seconds 60]
     *     [--faults kill,pause,disconnect,skew] [--threads 3] [--locks 3] [--ttl-ms 2000] [--run-dir dir]}
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
        try {
            Files.createDirectories(options.runDirectory());
            if (options.database() == TortureDatabase.H2) {
                h2 = H2TcpServer.start();
            }
            admin = adminPool(options.database());
            System.out.printf("torture db=%s processes=%d threads=%d locks=%d ttl=%dms seconds=%d faults=%s%n"
                    + "  logs in %s%n",
                    options.database().id(), options.processes(), options.threads(), options.locks(),
                    options.ttl().toMillis(), options.duration().getSeconds(), options.faultList(),
                    options.runDirectory().toAbsolutePath());
            TortureSchema.reset(admin, options.database(), options.locks());
            workers = new WorkerPool(options, options.database().workerUrl(h2 != null ? h2.port() : -1));
            WorkerPool started = workers;
            Runtime.getRuntime().addShutdownHook(new Thread(started::destroyAll, "torture-cleanup"));
            workers.startAll(READY_TIMEOUT.toMillis());
            System.out.println("  " + options.processes() + " workers ready; injecting faults for "
                    + options.duration().getSeconds() + " s");
            FaultLog faults = new FaultLog();
            long end = System.nanoTime() + options.duration().toNanos();
            new FaultInjector(options, admin, workers, h2, faults).run(end);
            System.out.println("  stopping the workers");
            workers.stopAll(STOP_GRACE.toMillis());
            Set<Long> killed = faults.kills().stream().map(FaultLog.Kill::pid).collect(Collectors.toSet());
            List<WorkerOutcome> outcomes = workers.started().stream().map(w -> new WorkerOutcome(w.name(), w.pid(),
                    w.skewMillis(), w.exitCode(), killed.contains(w.pid()), w.logLines())).toList();
            TortureChecker.Verdict verdict = new TortureChecker(admin, options, System.out).check(faults, outcomes);
            return verdict.passed() ? 0 : 1;
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
            close(admin);
            close(h2);
        }
    }

    private static HikariDataSource adminPool(TortureDatabase database) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.controllerUrl());
        config.setUsername(database.user());
        config.setPassword(database.password());
        config.setPoolName("torture-controller");
        config.setMaximumPoolSize(3);
        config.setConnectionTimeout(10_000);
        return new HikariDataSource(config);
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

package io.distlock.testsupport;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL cluster of a test's own, in a temporary directory on a free port, that the test may kill and restart
 * without touching the shared server: created with {@code initdb}, run by {@code pg_ctl} as the {@code postgres} OS
 * user when the tests run as root. Its settings are PostgreSQL's defaults for durability ({@code fsync} on,
 * {@code synchronous_commit} on), except that the WAL writer waits the longest it may ({@code wal_writer_delay} 10 s):
 * commits that did not wait for the flush then stay in memory longest, the worst case for them. The binaries are
 * found under {@code DISTLOCK_TEST_POSTGRESQL_BIN}, else the newest {@code /usr/lib/postgresql/<version>/bin}, else
 * on the {@code PATH}. A cluster accepts streaming replication from {@code 127.0.0.1}: {@link #startStandby()} makes
 * a streaming standby of it ({@code pg_basebackup -R}), which {@link #promote()} turns into a primary. It can also
 * be frozen ({@link #freeze}): every process of the server stopped with {@code SIGSTOP}, so that its connections
 * stay open and nothing answers.
 */
public final class PrivatePostgres implements AutoCloseable {

    private final Path bin;

    private final Path base;

    private final Path data;

    private final int port;

    private PrivatePostgres(Path bin, Path base, int port) {
        this.bin = bin;
        this.base = base;
        this.data = base.resolve("data");
        this.port = port;
    }

    /**
     * Where {@code initdb} lies, or why it cannot be used.
     *
     * @return the directory of the PostgreSQL binaries, or {@code null} when none has {@code initdb}
     */
    public static @Nullable Path binaries() {
        String configured = System.getenv("DISTLOCK_TEST_POSTGRESQL_BIN");
        if (configured != null && !configured.isBlank()) {
            return Files.isExecutable(Path.of(configured, "initdb")) ? Path.of(configured) : null;
        }
        Path versions = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> dirs = Files.list(versions)) {
                Path found = dirs.map(dir -> dir.resolve("bin"))
                        .filter(dir -> Files.isExecutable(dir.resolve("initdb")))
                        .max(Comparator.comparing(dir -> versionOf(dir.getParent().getFileName().toString())))
                        .orElse(null);
                if (found != null) {
                    return found;
                }
            }
            catch (IOException ex) {
                return null;
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "initdb"))) {
                return Path.of(dir);
            }
        }
        return null;
    }

    private static int versionOf(String name) {
        try {
            return Integer.parseInt(name.replaceAll("\\D.*", ""));
        }
        catch (NumberFormatException ex) {
            return 0;
        }
    }

    /**
     * Creates and starts a cluster.
     *
     * @param bin the binaries' directory, from {@link #binaries()}
     * @return the running cluster
     */
    public static PrivatePostgres start(Path bin) throws IOException, InterruptedException {
        Path base = Files.createTempDirectory("distlock-pg-");
        PrivatePostgres cluster = new PrivatePostgres(bin, base, freePort());
        try {
            if (asRoot()) {
                run(List.of("chown", "postgres:postgres", base.toString()));
            }
            cluster.pg("initdb", "-D", cluster.data.toString(), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                    "--locale=C",
                    "--no-sync");
            Files.writeString(cluster.data.resolve("postgresql.conf"), """

                    port = %d
                    listen_addresses = '127.0.0.1'
                    unix_socket_directories = '%s'
                    fsync = on
                    wal_writer_delay = 10s
                    max_connections = 30
                    shared_buffers = 16MB
                    """.formatted(cluster.port, base), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            Files.writeString(cluster.data.resolve("pg_hba.conf"), "\nhost replication all 127.0.0.1/32 trust\n",
                    StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            cluster.startServer();
            return cluster;
        }
        catch (IOException | InterruptedException | RuntimeException ex) {
            cluster.close();
            throw ex;
        }
    }

    /**
     * Creates and starts a streaming standby of this cluster, on a free port of its own: a base backup that writes
     * the standby's settings ({@code pg_basebackup -R}).
     *
     * @return the running standby
     */
    public PrivatePostgres startStandby() throws IOException, InterruptedException {
        Path standbyBase = Files.createTempDirectory("distlock-pg-standby-");
        PrivatePostgres standby = new PrivatePostgres(bin, standbyBase, freePort());
        try {
            if (asRoot()) {
                run(List.of("chown", "postgres:postgres", standbyBase.toString()));
            }
            standby.followFromBaseBackup(this);
            return standby;
        }
        catch (IOException | InterruptedException | RuntimeException ex) {
            standby.close();
            throw ex;
        }
    }

    /**
     * Makes this cluster, killed or stopped, a streaming standby of another one on its own port again: its data
     * directory is replaced by a base backup of the other ({@code pg_basebackup -R}), as an old primary rejoins after
     * a failover.
     *
     * @param primary the cluster to follow
     */
    public void rebuildAsStandbyOf(PrivatePostgres primary) throws IOException, InterruptedException {
        kill();
        try (Stream<Path> paths = Files.walk(data)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        followFromBaseBackup(primary);
    }

    private void followFromBaseBackup(PrivatePostgres primary) throws IOException, InterruptedException {
        pg("pg_basebackup", "-h", "127.0.0.1", "-p", String.valueOf(primary.port), "-U", "postgres", "-D",
                data.toString(), "-R", "-X", "stream", "--checkpoint=fast", "--no-sync");
        Files.writeString(data.resolve("postgresql.conf"), """

                port = %d
                unix_socket_directories = '%s'
                """.formatted(port, base), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        startServer();
    }

    /** Promotes a standby to a primary, waiting until it accepts writes. */
    public void promote() throws IOException, InterruptedException {
        pg("pg_ctl", "-D", data.toString(), "-w", "-t", "60", "promote");
    }

    /**
     * Kills the server and every process of it at once ({@code SIGKILL}), stopped ones included: a machine that
     * died, whose WAL not yet sent stays unsent.
     */
    public void kill() throws IOException, InterruptedException {
        Path pidFile = data.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        String postmaster = Files.readAllLines(pidFile, StandardCharsets.UTF_8).get(0).trim();
        List<String> pids = new ArrayList<>(List.of(postmaster));
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(proc -> proc.getFileName().toString().matches("\\d+")).forEach(proc -> {
                try {
                    String stat = Files.readString(proc.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (fields[1].equals(postmaster)) {
                        pids.add(proc.getFileName().toString());
                    }
                }
                catch (IOException | RuntimeException ex) {
                    // gone already
                }
            });
        }
        List<String> command = new ArrayList<>(List.of("kill", "-KILL"));
        command.addAll(pids);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        process.waitFor(10, TimeUnit.SECONDS);
        for (int i = 0; i < 100 && pids.stream().anyMatch(pid -> Files.exists(Path.of("/proc", pid))); i++) {
            Thread.sleep(50); // the OS reaps them: nothing to wait on but polling
        }
        Files.deleteIfExists(pidFile);
    }

    /**
     * Sends a signal to one process of a server, such as {@code STOP} or {@code CONT} to a walsender.
     *
     * @param signal the signal's name
     * @param pid the process
     */
    public static void signal(String signal, long pid) throws IOException, InterruptedException {
        run(List.of("kill", "-" + signal, String.valueOf(pid)));
    }

    /** @return the port the server listens on */
    public int port() {
        return port;
    }

    /** @return the JDBC URL of its {@code postgres} database */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /** Starts the server on its data directory, running crash recovery if it was killed. */
    public void startServer() throws IOException, InterruptedException {
        pg("pg_ctl", "-D", data.toString(), "-l", base.resolve("server.log").toString(), "-w", "-t", "60", "start");
    }

    /** Kills the server as a power cut would leave it: no checkpoint, no flush of what is not on disk yet. */
    public void crash() throws IOException, InterruptedException {
        pg("pg_ctl", "-D", data.toString(), "-m", "immediate", "-w", "stop");
    }

    /**
     * Opens a pool of connections to the cluster's {@code postgres} database.
     *
     * @param size the most connections
     * @return the pool
     */
    public HikariDataSource openPool(int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("distlock-private-postgresql");
        config.setJdbcUrl(url());
        config.setUsername("postgres");
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(5_000);
        return new HikariDataSource(config);
    }

    /**
     * Freezes the server as a hung host or a network path that swallows packets would leave it: the postmaster and
     * every process it started are stopped ({@code SIGSTOP}), so that TCP connections stay open, new ones are
     * accepted by the kernel, and nothing answers — neither statements nor cancel requests. Closing what this answers
     * lets them go on ({@code SIGCONT}); always close it, in a {@code finally}.
     *
     * @return what thaws the server when closed
     */
    public Frozen freeze() throws IOException, InterruptedException {
        long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        signal("-STOP", List.of(postmaster));
        List<Long> pids = new ArrayList<>();
        pids.add(postmaster);
        ProcessHandle.of(postmaster).ifPresent(handle -> handle.descendants().forEach(p -> pids.add(p.pid())));
        Frozen frozen = new Frozen(pids);
        try {
            signal("-STOP", pids);
            return frozen;
        }
        catch (IOException | InterruptedException | RuntimeException ex) {
            frozen.close();
            throw ex;
        }
    }

    private static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kill", signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        run(command);
    }

    /** A frozen server: closing it lets every stopped process go on. */
    public static final class Frozen implements AutoCloseable {

        private final List<Long> pids;

        private Frozen(List<Long> pids) {
            this.pids = List.copyOf(pids);
        }

        /** Continues every process stopped ({@code SIGCONT}), children before the postmaster. */
        @Override
        public void close() {
            List<Long> order = new ArrayList<>(pids);
            java.util.Collections.reverse(order);
            try {
                signal("-CONT", order);
            }
            catch (IOException | InterruptedException | RuntimeException ex) {
                throw new IllegalStateException("Could not thaw the private PostgreSQL (pids " + pids + ")", ex);
            }
        }
    }

    /** Stops the server if it runs and deletes its directory. */
    @Override
    public void close() {
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                pg("pg_ctl", "-D", data.toString(), "-m", "immediate", "-w", "stop");
            }
        }
        catch (IOException | InterruptedException | RuntimeException ex) {
            System.err.println("Could not stop the private PostgreSQL in " + base + ": " + ex);
        }
        try (Stream<Path> paths = Files.walk(base)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException ex) {
            System.err.println("Could not delete " + base + ": " + ex);
        }
    }

    private void pg(String program, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (asRoot()) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(args));
        run(command);
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not end in 90 s");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed with exit code "
                    + process.exitValue() + ": " + new String(output, StandardCharsets.UTF_8));
        }
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

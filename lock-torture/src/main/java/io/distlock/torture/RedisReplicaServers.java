package io.distlock.torture;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * The private replicated Redis of the Redis failover run: a primary and a replica ({@code redis-server} on free
 * ports of 127.0.0.1, no persistence, under the run directory) and a Sentinel that promotes the replica when the
 * primary stops answering for two seconds (one second made spurious failovers on a loaded machine). Each server is
 * this JVM's child process, stopped by its own id: frozen with {@code SIGSTOP}, killed with {@code SIGKILL}. Never
 * the shared servers.
 */
final class RedisReplicaServers implements AutoCloseable {

    static final String MASTER_NAME = "distlock-torture";

    private final Path dir;

    private Server primary;

    private Server replica;

    private final Server sentinel;

    private RedisReplicaServers(Path dir) throws IOException {
        this.dir = dir;
        this.primary = new Server(dir.resolve("a"), freePort());
        this.replica = new Server(dir.resolve("b"), freePort());
        this.sentinel = new Server(dir.resolve("sentinel"), freePort());
    }

    /** Starts the primary, the replica in sync with it, and the Sentinel that monitors them. */
    static RedisReplicaServers start(Path dir) throws IOException {
        RedisReplicaServers servers = new RedisReplicaServers(dir);
        try {
            servers.primary.start();
            servers.replica.start("--replicaof", "127.0.0.1", Integer.toString(servers.primary.port));
            servers.awaitInSync(Duration.ofSeconds(30));
            Path config = Files.createDirectories(servers.sentinel.dir).resolve("sentinel.conf");
            Files.writeString(config, String.join("\n", "port " + servers.sentinel.port, "bind 127.0.0.1",
                    "dir " + servers.sentinel.dir, "sentinel monitor " + MASTER_NAME + " 127.0.0.1 "
                            + servers.primary.port + " 1",
                    "sentinel down-after-milliseconds " + MASTER_NAME + " 2000",
                    "sentinel failover-timeout " + MASTER_NAME + " 3000", ""));
            servers.sentinel.startSentinel(config);
            servers.awaitSentinelMaster(servers.primary.port, Duration.ofSeconds(30));
            return servers;
        }
        catch (IOException | RuntimeException ex) {
            servers.close();
            throw ex;
        }
    }

    /** The Sentinel's address, for clients that follow the failovers. */
    RedisURI sentinelUri() {
        return RedisURI.Builder.sentinel("127.0.0.1", sentinel.port, MASTER_NAME).build();
    }

    int sentinelPort() {
        return sentinel.port;
    }

    int primaryPort() {
        return primary.port;
    }

    void freezeReplica() throws IOException {
        replica.signal("-STOP");
    }

    void thawReplica() throws IOException {
        replica.signal("-CONT");
    }

    /**
     * Writes a large value on the primary so that its replication stream backs up behind it: with the replica
     * frozen, the socket buffers fill and the writes after it stay in the primary's memory, as on a replica that
     * lags; they are lost when the primary dies.
     */
    void backUpReplication(int bytes) {
        try (Admin admin = new Admin(primary.port)) {
            admin.connection.sync().psetex("distlock-torture:backlog", 60_000, "x".repeat(bytes));
        }
    }

    /**
     * Follows a failover the Sentinel made by itself (a primary too slow to answer it for a second, on a loaded
     * machine): when it names the replica as the primary, the roles are swapped, and the replica is waited for.
     *
     * @return whether the Sentinel had failed over by itself
     */
    boolean followSentinel(Duration timeout) {
        boolean swapped = false;
        if (masterPort() == replica.port) {
            Server promoted = replica;
            replica = primary;
            primary = promoted;
            swapped = true;
        }
        awaitInSync(timeout);
        return swapped;
    }

    /** Kills the primary (SIGKILL). */
    void killPrimary() {
        primary.kill();
    }

    /** Waits until the Sentinel names the replica as the primary, then swaps the roles. */
    void awaitPromotion(Duration timeout) {
        Server promoted = replica;
        await(() -> masterPort() == promoted.port && info(promoted).contains("role:master"), timeout,
                "Sentinel did not promote the replica on port " + promoted.port);
        replica = primary;
        primary = promoted;
    }

    /** Starts the killed primary again, empty, as a replica of the new primary, and waits until it is in sync. */
    void rejoinOldPrimary(Duration timeout) throws IOException {
        replica.start("--replicaof", "127.0.0.1", Integer.toString(primary.port));
        awaitInSync(timeout);
    }

    private void awaitInSync(Duration timeout) {
        await(() -> info(replica).contains("master_link_status:up")
                && info(primary).contains("connected_slaves:1") && info(primary).contains("state=online"), timeout,
                "the replica on port " + replica.port + " did not get in sync with port " + primary.port);
    }

    private void awaitSentinelMaster(int port, Duration timeout) {
        await(() -> masterPort() == port, timeout, "the Sentinel does not name port " + port + " as the primary");
    }

    int masterPort() {
        try (Admin admin = new Admin(sentinel.port)) {
            List<String> address = admin.connection.sync().dispatch(io.lettuce.core.protocol.CommandType.SENTINEL,
                    new io.lettuce.core.output.ValueListOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                    new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8)
                        .add("get-master-addr-by-name").add(MASTER_NAME));
            return address == null || address.size() < 2 ? -1 : Integer.parseInt(address.get(1));
        }
        catch (RuntimeException ex) {
            return -1;
        }
    }

    private static String info(Server server) {
        try (Admin admin = new Admin(server.port)) {
            return admin.connection.sync().info("replication");
        }
        catch (RuntimeException ex) {
            return "";
        }
    }

    private static void await(BooleanSupplier condition, Duration timeout, String failure) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(failure + " within " + timeout);
            }
            sleep(50);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        sentinel.kill();
        replica.kill();
        primary.kill();
    }

    @Override
    public String toString() {
        return "primary 127.0.0.1:" + primary.port + ", replica 127.0.0.1:" + replica.port + ", Sentinel 127.0.0.1:"
                + sentinel.port + " (" + dir + ")";
    }

    /** An admin connection of one second's timeout. */
    private static final class Admin implements AutoCloseable {

        private final RedisClient client;

        private final StatefulRedisConnection<String, String> connection;

        Admin(int port) {
            RedisURI uri = RedisURI.create("127.0.0.1", port);
            uri.setTimeout(Duration.ofSeconds(2));
            this.client = RedisClient.create(uri);
            try {
                this.connection = client.connect();
            }
            catch (RuntimeException ex) {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
                throw ex;
            }
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    /** One {@code redis-server} process. */
    private static final class Server {

        private final Path dir;

        private final int port;

        private Process process;

        Server(Path dir, int port) {
            this.dir = dir;
            this.port = port;
        }

        void start(String... options) throws IOException {
            Files.createDirectories(dir);
            List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0",
                    "--dir", dir.toString()));
            command.addAll(List.of(options));
            launch(command);
        }

        void startSentinel(Path config) throws IOException {
            launch(List.of("redis-server", config.toString(), "--sentinel"));
        }

        private void launch(List<String> command) throws IOException {
            File log = dir.resolve("redis.log").toFile();
            process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
            await(() -> !process.isAlive() || answersPing(), Duration.ofSeconds(10),
                    "redis-server on port " + port + " did not answer; see " + log);
            if (!process.isAlive()) {
                throw new IOException("redis-server on port " + port + " exited; see " + log);
            }
        }

        private boolean answersPing() {
            try (Admin admin = new Admin(port)) {
                return "PONG".equals(admin.connection.sync().ping());
            }
            catch (RuntimeException ex) {
                return false;
            }
        }

        void signal(String signal) throws IOException {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
            try {
                if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                    throw new IOException("kill " + signal + " " + process.pid() + " failed");
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            }
        }

        void kill() {
            if (process != null) {
                process.destroyForcibly();
                try {
                    process.waitFor(10, TimeUnit.SECONDS);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                process = null;
            }
        }
    }
}

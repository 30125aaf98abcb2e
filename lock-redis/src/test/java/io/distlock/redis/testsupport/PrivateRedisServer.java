package io.distlock.redis.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A Redis server of the test's own, on a free port and without persistence, for tests that stop or restart a server
 * (never the shared one). Needs {@code redis-server} on the path; without it the test is skipped with a notice, or
 * fails when {@code DISTLOCK_TEST_REQUIRE} names {@code redis}.
 */
public final class PrivateRedisServer implements AutoCloseable {

    private final int port;

    private final Path dir;

    private List<String> options;

    private Process process;

    private PrivateRedisServer(int port, Path dir, List<String> options) {
        this.port = port;
        this.dir = dir;
        this.options = options;
    }

    /**
     * Starts a Sentinel (the same binary in Sentinel mode) that monitors a primary as {@code name}, with a quorum of
     * one, finding it down after one second without an answer.
     *
     * @param name the name of the monitored primary
     * @param primaryPort its port on 127.0.0.1
     * @return the running Sentinel
     */
    public static PrivateRedisServer startSentinel(String name, int primaryPort) {
        try {
            int port = freePort();
            Path dir = Files.createTempDirectory("distlock-sentinel");
            Path config = dir.resolve("sentinel.conf");
            Files.writeString(config, String.join("\n", "port " + port, "bind 127.0.0.1", "dir " + dir,
                    "sentinel monitor " + name + " 127.0.0.1 " + primaryPort + " 1",
                    "sentinel down-after-milliseconds " + name + " 1000",
                    "sentinel failover-timeout " + name + " 3000", ""));
            PrivateRedisServer sentinel = new PrivateRedisServer(port, dir, List.of(config.toString(), "--sentinel"));
            sentinel.launch();
            return sentinel;
        }
        catch (IOException ex) {
            throw unavailable("cannot start a private Redis Sentinel (" + ex.getMessage() + ")", ex);
        }
    }

    /**
     * Starts a server.
     *
     * @param options further {@code redis-server} options, such as {@code --cluster-enabled yes}
     * @return the running server
     */
    public static PrivateRedisServer start(String... options) {
        try {
            PrivateRedisServer server = new PrivateRedisServer(freePort(), Files.createTempDirectory("distlock-redis"),
                    List.of(options));
            server.launch();
            return server;
        }
        catch (IOException ex) {
            throw unavailable("cannot start a private redis-server (" + ex.getMessage() + ")", ex);
        }
    }

    /**
     * Skips the calling test with a notice, or fails it when {@code DISTLOCK_TEST_REQUIRE} names {@code redis}.
     *
     * @param message what could not be done
     * @param cause why
     * @return never returns normally
     */
    static IllegalStateException unavailable(String message, Exception cause) {
        if (TestRedis.required()) {
            Assertions.fail(message + " but DISTLOCK_TEST_REQUIRE demands Redis", cause);
        }
        System.err.println("NOTICE: " + message + ": the test is skipped");
        Assumptions.abort(message);
        return new IllegalStateException(message, cause);
    }

    /** @return the port the server listens on */
    public int port() {
        return port;
    }

    /**
     * Stops the server at once (SIGKILL): what a crash does. Without persistence its data is gone.
     */
    public void kill() {
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

    /** @return the process id of the running server */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException("redis-server on port " + port + " is not running");
        }
        return process.pid();
    }

    /**
     * Freezes the server (SIGSTOP): it keeps its connections but answers nothing, as a stalled replica does.
     */
    public void freeze() {
        signal("-STOP");
    }

    /**
     * Lets a frozen server run again (SIGCONT).
     */
    public void thaw() {
        signal("-CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + pid() + " failed");
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Starts the server again on the same port, empty, with other options, such as
     * {@code --replicaof 127.0.0.1 <port>} to bring a failed primary back as a replica of the new one.
     *
     * @param newOptions the options that replace those it was started with
     */
    public void restart(String... newOptions) {
        this.options = List.of(newOptions);
        restart();
    }

    /**
     * Starts the server again on the same port, empty.
     */
    public void restart() {
        kill();
        try {
            launch();
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() {
        kill();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
        catch (IOException ex) {
            // a temporary directory left behind
        }
    }

    private void launch() throws IOException {
        File log = dir.resolve("redis.log").toFile();
        List<String> command = new java.util.ArrayList<>(List.of("redis-server"));
        if (options.contains("--sentinel")) {
            command.addAll(options);
        }
        else {
            command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no", "--dir", dir.toString()));
            command.addAll(options);
        }
        process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (answersPing()) {
                return;
            }
            if (!process.isAlive()) {
                throw new IOException("redis-server exited with " + process.exitValue() + "; see " + log);
            }
            try {
                Thread.sleep(20);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            }
        }
        throw new IOException("redis-server on port " + port + " did not answer within 10 s; see " + log);
    }

    private boolean answersPing() {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            int read = in.readNBytes(reply, 0, 7);
            return read == 7 && new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        }
        catch (IOException ex) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

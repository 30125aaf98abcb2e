package io.distlock.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The Redis server of the handover scenario, named by {@code DISTLOCK_TEST_REDIS_URL} (default
 * {@code redis://127.0.0.1:6379}, as for the Redis store's tests): Redisson's lock runs on it as the handover anchor,
 * and so does distlock's Redis store when it is on the class path. Reachability and version are asked with a plain
 * socket, so that no Redis client is needed for the check.
 */
final class RedisServer {

    /** The id under which Redis figures are reported, as a database's id is. */
    static final String ID = "redis";

    private static final URI URL = URI.create(env("DISTLOCK_TEST_REDIS_URL", "redis://127.0.0.1:6379"));

    private static final int TIMEOUT_MILLIS = 2_000;

    private RedisServer() {
    }

    /** @return the server's URL, {@code redis://host:port} */
    static String url() {
        return "redis://" + host() + ":" + port();
    }

    static String host() {
        return URL.getHost() != null ? URL.getHost() : "127.0.0.1";
    }

    static int port() {
        return URL.getPort() > 0 ? URL.getPort() : 6379;
    }

    /**
     * Tells why the server cannot be used, if it cannot.
     *
     * @return an empty string when it answers {@code PING}, else the reason
     */
    static String problem() {
        try {
            String reply = command("PING");
            return reply.startsWith("+PONG") ? "" : "unexpected reply to PING: " + reply.strip();
        }
        catch (IOException ex) {
            return ex.toString();
        }
    }

    /** @return {@code Redis 7.0.15}, or {@code Redis} when the version cannot be read */
    static String version() {
        try {
            for (String line : command("INFO server").split("\r\n")) {
                if (line.startsWith("redis_version:")) {
                    return "Redis " + line.substring("redis_version:".length()).strip();
                }
            }
        }
        catch (IOException ex) {
            // The version is only for the report.
        }
        return "Redis";
    }

    /**
     * Sends one inline command and reads what the server sends back within a short while.
     */
    private static String command(String command) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host(), port()), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[16_384];
            int first = in.read(buffer);
            if (first < 0) {
                throw new IOException("Redis closed the connection");
            }
            StringBuilder reply = new StringBuilder(new String(buffer, 0, first, StandardCharsets.UTF_8));
            if (reply.charAt(0) == '$') {
                // A bulk reply: $<length>\r\n<payload>\r\n
                int length = Integer.parseInt(reply.substring(1, reply.indexOf("\r\n")));
                int wanted = reply.indexOf("\r\n") + 2 + length;
                while (reply.length() < wanted) {
                    int read = in.read(buffer);
                    if (read < 0) {
                        break;
                    }
                    reply.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
                }
            }
            return reply.toString();
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}

package io.distlock.dashboard.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

import org.h2.tools.Server;

/**
 * A real lock store the test owns: an H2 database served over TCP on a free port, in a directory of its own, which a
 * test can stop to take the store away from the application and start again on the same port.
 */
final class H2Store implements AutoCloseable {

    private final Path directory;

    private Server server;

    private final int port;

    H2Store() throws IOException, SQLException {
        this.directory = Files.createTempDirectory("distlock-dashboard-h2");
        this.server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists", "-baseDir", directory.toString())
            .start();
        this.port = server.getPort();
    }

    String url() {
        return "jdbc:h2:tcp://127.0.0.1:" + port + "/locks";
    }

    /** Stops the server: every connection to it breaks, and new ones are refused. */
    void stop() {
        server.stop();
    }

    /** Starts the server again on the same port, with the same data. */
    void restart() throws SQLException {
        server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-ifNotExists", "-baseDir",
                directory.toString()).start();
    }

    @Override
    public void close() {
        server.stop();
        org.springframework.util.FileSystemUtils.deleteRecursively(directory.toFile());
    }
}

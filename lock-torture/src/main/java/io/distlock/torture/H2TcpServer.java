package io.distlock.torture;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.SQLException;

import org.h2.tools.Server;

/**
 * The H2 TCP server that serves the controller's in-memory database to the workers, on 127.0.0.1 only. Restarting
 * it is the H2 disconnect fault: stopping the server closes every client socket and session, rolling back their
 * transactions, while the in-memory database lives on in the controller's JVM.
 */
final class H2TcpServer implements AutoCloseable {

    private final int port;

    private Server server;

    private H2TcpServer(int port) throws SQLException {
        this.port = port;
        this.server = open(port);
    }

    /**
     * Starts a server on a free port of 127.0.0.1. Call before any other H2 class is used, so that the bind address
     * takes effect.
     */
    static H2TcpServer start() throws SQLException, IOException {
        System.setProperty("h2.bindAddress", "127.0.0.1");
        return new H2TcpServer(freePort());
    }

    int port() {
        return port;
    }

    /** Cuts every client connection: stops the server and starts it again on the same port. */
    synchronized void restart() throws SQLException, InterruptedException {
        server.stop();
        SQLException last = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            try {
                server = open(port);
                return;
            }
            catch (SQLException ex) {
                last = ex;
                Thread.sleep(20);
            }
        }
        throw last;
    }

    @Override
    public synchronized void close() {
        server.stop();
    }

    private static Server open(int port) throws SQLException {
        return Server.createTcpServer("-tcpPort", Integer.toString(port), "-tcpDaemon").start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}

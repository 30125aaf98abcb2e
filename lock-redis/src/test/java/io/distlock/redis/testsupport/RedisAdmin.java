package io.distlock.redis.testsupport;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

/**
 * An operator's connection of its own to a Redis server, for what tests do to the server around the code under
 * test: pause clients, kill their connections, add users, flush the script cache.
 */
public final class RedisAdmin implements AutoCloseable {

    private final RedisClient client;

    private final StatefulRedisConnection<String, String> connection;

    private RedisAdmin(String host, int port) {
        this.client = RedisClient.create(RedisURI.create(host, port));
        this.connection = client.connect();
    }

    /**
     * Connects to the test server.
     *
     * @return the admin connection
     */
    public static RedisAdmin connect() {
        TestRedis.assumeAvailable();
        return new RedisAdmin(TestRedis.host(), TestRedis.port());
    }

    /**
     * Connects to any server.
     *
     * @param host the host
     * @param port the port
     * @return the admin connection
     */
    public static RedisAdmin connect(String host, int port) {
        return new RedisAdmin(host, port);
    }

    /** @return the synchronous commands */
    public RedisCommands<String, String> commands() {
        return connection.sync();
    }

    /**
     * Runs a command answered with a status, such as {@code ACL SETUSER …} or {@code CLIENT PAUSE 1000 WRITE}.
     *
     * @param command the command
     * @param args its arguments
     * @return the status
     */
    public String status(CommandType command, String... args) {
        CommandArgs<String, String> commandArgs = new CommandArgs<>(StringCodec.UTF8);
        Arrays.stream(args).forEach(commandArgs::add);
        return commands().dispatch(command, new StatusOutput<>(StringCodec.UTF8), commandArgs);
    }

    /**
     * Runs a command answered with an integer, such as {@code ACL DELUSER …}.
     *
     * @param command the command
     * @param args its arguments
     * @return the integer
     */
    public long integer(CommandType command, String... args) {
        CommandArgs<String, String> commandArgs = new CommandArgs<>(StringCodec.UTF8);
        Arrays.stream(args).forEach(commandArgs::add);
        return commands().dispatch(command, new IntegerOutput<>(StringCodec.UTF8), commandArgs);
    }

    /**
     * The ids of the connections whose client name is {@code name}, with the command each ran last.
     *
     * @param name the client name
     * @return one {@code id=… cmd=…} entry per connection
     */
    public List<ClientInfo> clients(String name) {
        return commands().clientList().lines()
                .filter(line -> Arrays.asList(line.split(" ")).contains("name=" + name))
                .map(ClientInfo::parse)
                .toList();
    }

    /**
     * Kills the connections named {@code name}.
     *
     * @param name the client name
     * @return how many were killed
     */
    public int kill(String name) {
        int killed = 0;
        for (ClientInfo info : clients(name)) {
            killed += commands().clientKill(KillArgs.Builder.id(info.id())).intValue();
        }
        return killed;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }

    /**
     * One line of {@code CLIENT LIST}.
     *
     * @param id the connection's id
     * @param command the last command it ran, or is blocked in
     */
    public record ClientInfo(long id, String command) {

        static ClientInfo parse(String line) {
            return new ClientInfo(Long.parseLong(field(line, "id").orElseThrow()), field(line, "cmd").orElse(""));
        }

        private static Optional<String> field(String line, String name) {
            return Arrays.stream(line.split(" ")).filter(f -> f.startsWith(name + "="))
                    .map(f -> f.substring(name.length() + 1)).findFirst();
        }
    }
}

package io.distlock.redis.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.awaitility.Awaitility;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A replicated Redis of the test's own: a primary and a replica on free ports, without persistence, and a Sentinel
 * that fails over to the replica when the primary stops answering. Needs {@code redis-server} on the path; without
 * it the test is skipped with a notice, or fails when {@code DISTLOCK_TEST_REQUIRE} names {@code redis}.
 */
public final class PrivateRedisReplicaSet implements AutoCloseable {

    /** The name under which the Sentinel monitors the primary. */
    public static final String MASTER_NAME = "distlock";

    /** A replica's first sync starts at once, not after Redis's default five seconds. */
    private static final String[] NO_SYNC_DELAY = { "--repl-diskless-sync-delay", "0" };

    private PrivateRedisServer primary;

    private PrivateRedisServer replica;

    private final PrivateRedisServer sentinel;

    private PrivateRedisReplicaSet(PrivateRedisServer primary, PrivateRedisServer replica,
            PrivateRedisServer sentinel) {
        this.primary = primary;
        this.replica = replica;
        this.sentinel = sentinel;
    }

    /**
     * Starts the primary, the replica (in sync before this returns) and the Sentinel.
     *
     * @return the running replica set
     */
    public static PrivateRedisReplicaSet start() {
        PrivateRedisServer primary = PrivateRedisServer.start(NO_SYNC_DELAY);
        PrivateRedisServer replica = null;
        try {
            replica = PrivateRedisServer.start(replicaOf(primary));
            PrivateRedisServer sentinel = PrivateRedisServer.startSentinel(MASTER_NAME, primary.port());
            PrivateRedisReplicaSet set = new PrivateRedisReplicaSet(primary, replica, sentinel);
            set.awaitReplicaInSync();
            set.awaitSentinelSeesReplica();
            return set;
        }
        catch (RuntimeException | Error ex) {
            primary.close();
            if (replica != null) {
                replica.close();
            }
            throw ex;
        }
    }

    /**
     * Waits until the Sentinel names a primary that says it is one and the other server is its replica, in sync, and
     * takes the roles from there: on a loaded machine the Sentinel (down after 1 s) may have failed over by itself,
     * and a test that froze or killed "the replica" would then reach the primary.
     */
    public void awaitRolesSettled() {
        Awaitility.await("Sentinel, primary and replica agree on the roles").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(100)).until(() -> {
                int master = masterPort();
                if (master == replica.port() && "master".equals(role(replica))) {
                    PrivateRedisServer promoted = replica;
                    replica = primary;
                    primary = promoted;
                }
                return master == primary.port() && "master".equals(role(primary))
                        && "replica".equals(role(replica));
            });
        awaitReplicaInSync();
    }

    /** @return the server that is the primary now */
    public PrivateRedisServer primary() {
        return primary;
    }

    /** @return the server that is the replica now */
    public PrivateRedisServer replica() {
        return replica;
    }

    /** @return the Sentinel */
    public PrivateRedisServer sentinel() {
        return sentinel;
    }

    /**
     * A new, started connection factory that finds the primary through the Sentinel and follows its failovers; the
     * caller destroys it.
     *
     * @param client changes to the client's configuration
     * @return the factory
     */
    public LettuceConnectionFactory connectionFactory(
            Consumer<LettuceClientConfiguration.LettuceClientConfigurationBuilder> client) {
        RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(MASTER_NAME)
                .sentinel("127.0.0.1", sentinel.port());
        LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(10));
        client.accept(builder);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration, builder.build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * Kills the primary (SIGKILL), waits until the Sentinel has promoted the replica, then starts the old primary
     * again, empty, as a replica of the new one, and waits until it is in sync.
     *
     * @param timeout longest wait for the promotion
     * @return how long the promotion took, from the kill to the Sentinel naming the new primary
     */
    public Duration failOver(Duration timeout) {
        long start = System.nanoTime();
        primary.kill();
        awaitPromotion(timeout);
        Duration promotion = Duration.ofNanos(System.nanoTime() - start);
        rejoinOldPrimary();
        return promotion;
    }

    /**
     * Kills the primary (SIGKILL) and waits until the Sentinel has promoted the replica; the old primary stays down
     * until {@link #rejoinOldPrimary()}.
     *
     * @param timeout longest wait for the promotion
     */
    public void killPrimaryAndAwaitPromotion(Duration timeout) {
        primary.kill();
        awaitPromotion(timeout);
    }

    /** Starts the killed old primary again, empty, as a replica of the new primary, and waits until it is in sync. */
    public void rejoinOldPrimary() {
        replica.restart(replicaOf(primary));
        awaitReplicaInSync();
        awaitSentinelSeesReplica();
    }

    private void awaitPromotion(Duration timeout) {
        PrivateRedisServer promoted = replica;
        Awaitility.await("Sentinel promotes the replica on port " + promoted.port()).atMost(timeout)
            .pollInterval(Duration.ofMillis(50)).until(() -> masterPort() == promoted.port()
                    && "master".equals(role(promoted)));
        replica = primary;
        primary = promoted;
    }

    /** @return the primary's port as the Sentinel answers {@code SENTINEL get-master-addr-by-name} */
    public int masterPort() {
        try (RedisAdmin admin = RedisAdmin.connect("127.0.0.1", sentinel.port())) {
            List<String> address = admin.commands().dispatch(CommandType.SENTINEL,
                    new ValueListOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8)
                        .add("get-master-addr-by-name").add(MASTER_NAME));
            return address == null || address.size() < 2 ? -1 : Integer.parseInt(address.get(1));
        }
    }

    /**
     * Waits until the replica's link to the primary is up, the primary counts it as connected, and it has
     * acknowledged every write the primary had ({@code WAIT 1} answered by it): a lock write right after then waits
     * for a replica that answers at once, not one still loading the primary's snapshot.
     */
    public void awaitReplicaInSync() {
        Awaitility.await("replica on port " + replica.port() + " in sync with port " + primary.port())
            .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
                String replicaInfo = info(replica);
                String primaryInfo = info(primary);
                return replicaInfo.contains("master_link_status:up") && primaryInfo.contains("connected_slaves:1")
                        && primaryInfo.contains("state=online") && acknowledgedByReplica(primary);
            });
    }

    private static boolean acknowledgedByReplica(PrivateRedisServer primary) {
        try (RedisAdmin admin = RedisAdmin.connect("127.0.0.1", primary.port())) {
            return admin.commands().waitForReplication(1, 200) >= 1;
        }
        catch (RuntimeException ex) {
            return false;
        }
    }

    private void awaitSentinelSeesReplica() {
        Awaitility.await("Sentinel sees the replica on port " + replica.port()).atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(100)).until(() -> {
                try (RedisAdmin admin = RedisAdmin.connect("127.0.0.1", sentinel.port())) {
                    String replicas = admin.commands().dispatch(CommandType.SENTINEL,
                            new NestedMultiOutput<>(StringCodec.UTF8),
                            new CommandArgs<>(StringCodec.UTF8)
                                .add("replicas").add(MASTER_NAME)).toString();
                    return replicas.contains(Integer.toString(replica.port())) && !replicas.contains("s_down")
                            && masterPort() == primary.port();
                }
            });
    }

    private static String info(PrivateRedisServer server) {
        try (RedisAdmin admin = RedisAdmin.connect("127.0.0.1", server.port())) {
            return admin.commands().info("replication");
        }
        catch (RuntimeException ex) {
            return "";
        }
    }

    private static String role(PrivateRedisServer server) {
        return info(server).contains("role:master") ? "master" : "replica";
    }

    private static String[] replicaOf(PrivateRedisServer primary) {
        return new String[] { NO_SYNC_DELAY[0], NO_SYNC_DELAY[1], "--replicaof", "127.0.0.1",
            Integer.toString(primary.port()) };
    }

    /** @return a URI of the Sentinel, for clients other than Spring Data Redis */
    public RedisURI sentinelUri() {
        return RedisURI.Builder.sentinel("127.0.0.1", sentinel.port(), MASTER_NAME).build();
    }

    @Override
    public void close() {
        sentinel.close();
        replica.close();
        primary.close();
    }
}

package io.distlock.redis.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis Cluster of the test's own: three primaries on free ports, no replicas, no persistence, slots spread by
 * {@code redis-cli --cluster create}. Needs {@code redis-server} and {@code redis-cli} on the path; without them the
 * test is skipped with a notice, or fails when {@code DISTLOCK_TEST_REQUIRE} names {@code redis}.
 */
public final class PrivateRedisCluster implements AutoCloseable {

    private final List<PrivateRedisServer> nodes = new ArrayList<>();

    private PrivateRedisCluster() {
    }

    /**
     * Starts the nodes and joins them into one cluster.
     *
     * @return the cluster, every slot served
     */
    public static PrivateRedisCluster start() {
        PrivateRedisCluster cluster = new PrivateRedisCluster();
        try {
            for (int i = 0; i < 3; i++) {
                cluster.nodes.add(PrivateRedisServer.start("--cluster-enabled", "yes", "--cluster-config-file",
                        "nodes.conf", "--cluster-node-timeout", "5000"));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            cluster.nodes.forEach(node -> create.add("127.0.0.1:" + node.port()));
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            Process process = new ProcessBuilder(create).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("redis-cli --cluster create failed: " + output);
            }
            cluster.awaitSlotsServed();
            return cluster;
        }
        catch (IOException | InterruptedException ex) {
            cluster.close();
            throw PrivateRedisServer.unavailable("cannot start a private Redis Cluster (" + ex.getMessage() + ")", ex);
        }
        catch (RuntimeException | Error ex) {
            cluster.close();
            throw ex;
        }
    }

    /**
     * A new, started connection factory on the cluster; the caller destroys it.
     *
     * @return the factory
     */
    public LettuceConnectionFactory connectionFactory() {
        RedisClusterConfiguration configuration = new RedisClusterConfiguration(
                nodes.stream().map(node -> "127.0.0.1:" + node.port()).toList());
        LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(10)).build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    private void awaitSlotsServed() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            boolean ok = true;
            for (PrivateRedisServer node : nodes) {
                try (RedisAdmin admin = RedisAdmin.connect("127.0.0.1", node.port())) {
                    ok &= admin.commands().clusterInfo().contains("cluster_state:ok");
                }
            }
            if (ok) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException("the cluster did not reach cluster_state:ok within 30 s");
    }

    @Override
    public void close() {
        nodes.forEach(PrivateRedisServer::close);
    }
}

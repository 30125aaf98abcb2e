package io.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.core.LockRecord;
import io.distlock.core.LockResult;
import io.distlock.redis.testsupport.CountingConnectionFactory;
import io.distlock.redis.testsupport.PrivateRedisServer;
import io.distlock.redis.testsupport.RedisAdmin;
import io.distlock.redis.testsupport.TestRedis;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What the Redis store does when Redis misbehaves: an unreachable server or a connection killed in the middle of a
 * call never yields a lease the caller does not hold; a wrong password, a user without scripting and a server that
 * lost its script cache or its data are told apart; a restart without persistence starts tokens again, which is why
 * the guarantees document asks for persistence.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisLockRepositoryFaultTests {

    private static final Duration LONG = Duration.ofMinutes(5);

    private String prefix;

    private RedisLockRepository observer;

    @BeforeAll
    void createObserver() {
        TestRedis.assumeAvailable();
        prefix = TestRedis.newPrefix();
        observer = RedisLockRepository.builder(TestRedis.connectionFactory()).keyPrefix(prefix).build();
    }

    @AfterAll
    void deleteKeys() {
        if (prefix != null) {
            TestRedis.deleteKeys(prefix);
        }
    }

    private static String resource() {
        return "fault:" + UUID.randomUUID();
    }

    private static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    private RedisLockRepository repository(LettuceConnectionFactory factory) {
        return RedisLockRepository.builder(factory).keyPrefix(prefix).build();
    }

    @Test
    void unreachableRedisThrowsAndNeverYieldsALease() {
        LettuceConnectionFactory dead = TestRedis.connectionFactory("127.0.0.1", 1, server -> { },
                client -> client.commandTimeout(Duration.ofSeconds(2)));
        try {
            RedisLockRepository repository = repository(dead);
            assertThatThrownBy(() -> repository.acquire(resource(), owner(), LONG))
                    .isInstanceOf(DataAccessException.class);
            assertThatThrownBy(() -> repository.renewAll(List.of(new io.distlock.core.LeaseKey(resource(), owner())),
                    LONG)).isInstanceOf(DataAccessException.class);
            assertThatThrownBy(repository::verifySchema).isInstanceOf(RedisLockStoreException.class)
                    .hasMessageContaining("Redis does not answer the lock store")
                    .hasMessageContaining("127.0.0.1")
                    .hasMessageContaining("spring.data.redis");
        }
        finally {
            dead.destroy();
        }
    }

    @Test
    void aWrongPasswordIsReportedAsRefusedCredentials() {
        String user = "distlock-test-" + UUID.randomUUID();
        try (RedisAdmin admin = RedisAdmin.connect()) {
            admin.status(CommandType.ACL, "SETUSER", user, "on", ">right-password", "~*", "&*", "+@all");
            LettuceConnectionFactory factory = TestRedis.connectionFactory(server -> {
                server.setUsername(user);
                server.setPassword("wrong-password");
            }, client -> client.commandTimeout(Duration.ofSeconds(2)));
            try {
                assertThatThrownBy(repository(factory)::verifySchema).isInstanceOf(RedisLockStoreException.class)
                        .hasMessageContaining("Redis refused the credentials")
                        .hasMessageContaining("WRONGPASS")
                        .hasMessageContaining("spring.data.redis.password");
            }
            finally {
                factory.destroy();
            }
        }
        finally {
            try (RedisAdmin admin = RedisAdmin.connect()) {
                admin.integer(CommandType.ACL, "DELUSER", user);
            }
        }
    }

    @Test
    void aUserWithoutScriptingFailsTheCheckAndNeverGetsALease() {
        String user = "distlock-test-" + UUID.randomUUID();
        try (RedisAdmin admin = RedisAdmin.connect()) {
            admin.status(CommandType.ACL, "SETUSER", user, "on", ">secret", "~*", "&*", "+@all", "-@scripting");
            LettuceConnectionFactory factory = TestRedis.connectionFactory(server -> {
                server.setUsername(user);
                server.setPassword("secret");
            }, client -> client.commandTimeout(Duration.ofSeconds(2)));
            try {
                RedisLockRepository repository = repository(factory);
                assertThat(repository.ping()).isPositive();
                assertThatThrownBy(repository::verifySchema).isInstanceOf(RedisLockStoreException.class)
                        .hasMessageContaining("may not run scripts")
                        .hasMessageContaining("NOPERM")
                        .hasMessageContaining("+@scripting");
                String resource = resource();
                assertThatThrownBy(() -> repository.acquire(resource, owner(), LONG))
                        .isInstanceOf(org.springframework.dao.PermissionDeniedDataAccessException.class)
                        .hasMessageContaining("may not run scripts");
                assertThat(observer.find(resource)).isEmpty();
            }
            finally {
                factory.destroy();
            }
        }
        finally {
            try (RedisAdmin admin = RedisAdmin.connect()) {
                admin.integer(CommandType.ACL, "DELUSER", user);
            }
        }
    }

    @Test
    void aServerWithoutEvalFailsTheCheckSayingSo() {
        try (PrivateRedisServer server = PrivateRedisServer.start("--rename-command", "EVAL", "",
                "--rename-command", "EVALSHA", "")) {
            LettuceConnectionFactory factory = TestRedis.connectionFactory("127.0.0.1", server.port(), s -> { },
                    client -> client.commandTimeout(Duration.ofSeconds(2)));
            try {
                RedisLockRepository repository = RedisLockRepository.builder(factory).build();
                assertThat(repository.ping()).isPositive();
                assertThatThrownBy(repository::verifySchema).isInstanceOf(RedisLockStoreException.class)
                        .hasMessageContaining("does not run Lua scripts")
                        .hasMessageContaining("unknown command");
                assertThatThrownBy(() -> repository.acquire(resource(), owner(), LONG))
                        .isInstanceOf(DataAccessException.class);
            }
            finally {
                factory.destroy();
            }
        }
    }

    @Test
    void anAcquireWhoseConnectionIsKilledWhileTheServerHoldsItEitherThrowsOrHoldsTheLock() throws Exception {
        String name = "distlock-kill-" + UUID.randomUUID();
        LettuceConnectionFactory factory = TestRedis.connectionFactory(server -> { },
                client -> client.clientName(name).commandTimeout(Duration.ofSeconds(5)));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RedisAdmin admin = RedisAdmin.connect()) {
            RedisLockRepository repository = repository(factory);
            repository.verifySchema();
            int threw = 0;
            int held = 0;
            for (int round = 0; round < 5; round++) {
                String resource = resource();
                String owner = owner();
                admin.status(CommandType.CLIENT, "PAUSE", "3000", "WRITE");
                Future<Optional<LockRecord>> acquire;
                try {
                    acquire = pool.submit(() -> repository.acquire(resource, owner, LONG));
                    await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                            .until(() -> admin.clients(name).stream().anyMatch(c -> c.command().startsWith("eval")));
                    assertThat(admin.kill(name)).isPositive();
                }
                finally {
                    admin.status(CommandType.CLIENT, "UNPAUSE");
                }
                try {
                    LockRecord record = acquire.get(10, TimeUnit.SECONDS).orElseThrow();
                    assertThat(observer.find(resource)).as("a lease returned is held").contains(record);
                    held++;
                }
                catch (java.util.concurrent.ExecutionException ex) {
                    assertThat(ex.getCause()).isInstanceOf(DataAccessException.class);
                    assertThat(observer.find(resource)).as("no lease: nobody holds it").isEmpty();
                    threw++;
                }
            }
            System.out.printf("KILLED ACQUIRES threw=%d held=%d%n", threw, held);
            assertThat(threw + held).isEqualTo(5);
            String resource = resource();
            assertThat(repository.acquire(resource, owner(), LONG)).as("works again after reconnecting").isPresent();
        }
        finally {
            pool.shutdownNow();
            factory.destroy();
        }
    }

    @Test
    void withoutReconnectionAKilledAcquireThrowsAndTakesNothing() throws Exception {
        String name = "distlock-kill-" + UUID.randomUUID();
        LettuceConnectionFactory factory = TestRedis.connectionFactory(server -> { },
                client -> client.clientName(name).commandTimeout(Duration.ofSeconds(5))
                        .clientOptions(ClientOptions.builder().autoReconnect(false).build()));
        factory.setValidateConnection(true);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RedisAdmin admin = RedisAdmin.connect()) {
            RedisLockRepository repository = repository(factory);
            repository.verifySchema();
            String resource = resource();
            admin.status(CommandType.CLIENT, "PAUSE", "3000", "WRITE");
            Future<Optional<LockRecord>> acquire;
            try {
                acquire = pool.submit(() -> repository.acquire(resource, owner(), LONG));
                await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                        .until(() -> admin.clients(name).stream().anyMatch(c -> c.command().startsWith("eval")));
                assertThat(admin.kill(name)).isPositive();
            }
            finally {
                admin.status(CommandType.CLIENT, "UNPAUSE");
            }
            assertThatThrownBy(() -> acquire.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(DataAccessException.class);
            assertThat(observer.find(resource)).isEmpty();
            assertThat(repository.acquire(resource, owner(), LONG)).as("a validated connection replaces the dead one")
                    .isPresent();
        }
        finally {
            pool.shutdownNow();
            factory.destroy();
        }
    }

    @Test
    void connectionsKilledAgainAndAgainNeverLetTwoHoldersIn() throws Exception {
        String name = "distlock-chaos-" + UUID.randomUUID();
        LettuceConnectionFactory factory = TestRedis.connectionFactory(server -> { },
                client -> client.clientName(name).commandTimeout(Duration.ofSeconds(5)));
        RedisLockRepository repository = repository(factory);
        String resource = resource();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger acquired = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try (RedisAdmin admin = RedisAdmin.connect()) {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                workers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        String owner = owner();
                        try {
                            if (repository.acquire(resource, owner, Duration.ofSeconds(1)).isPresent()) {
                                acquired.incrementAndGet();
                                if (inside.incrementAndGet() > 1) {
                                    overlaps.incrementAndGet();
                                }
                                Thread.sleep(2);
                                inside.decrementAndGet();
                                repository.release(resource, owner);
                            }
                        }
                        catch (DataAccessException ex) {
                            failures.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < end) {
                admin.kill(name);
                Thread.sleep(25);
            }
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
            factory.destroy();
        }
        System.out.printf("CHAOS acquired=%d failures=%d%n", acquired.get(), failures.get());
        assertThat(overlaps.get()).isZero();
        assertThat(acquired.get()).isPositive();
    }

    @Test
    void aServerRestartedWithoutPersistenceForgetsScriptsAndTokens() {
        try (PrivateRedisServer server = PrivateRedisServer.start()) {
            LettuceConnectionFactory factory = TestRedis.connectionFactory("127.0.0.1", server.port(), s -> { },
                    client -> client.commandTimeout(Duration.ofSeconds(2)));
            try {
                CountingConnectionFactory counting = new CountingConnectionFactory(factory);
                RedisLockRepository repository = RedisLockRepository.builder(counting.factory()).build();
                String resource = resource();
                long last = 0;
                for (int i = 0; i < 3; i++) {
                    String owner = owner();
                    last = repository.acquire(resource, owner, LONG).orElseThrow().token();
                    assertThat(repository.release(resource, owner)).isEqualTo(LockResult.APPLIED);
                }
                assertThat(last).isEqualTo(3);

                server.kill();
                assertThatThrownBy(() -> repository.acquire(resource, owner(), LONG))
                        .as("Redis down: no lease").isInstanceOf(DataAccessException.class);

                server.restart();
                String owner = owner();
                await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                        .until(() -> repository.ping() != null);
                counting.reset();
                LockRecord after = repository.acquire(resource, owner, LONG).orElseThrow();
                assertThat(counting.scripts()).as("EVALSHA answered NOSCRIPT, then EVAL").isEqualTo(2);
                assertThat(after.token()).as("without persistence the counter starts again: tokens repeat")
                        .isEqualTo(1);
                counting.reset();
                assertThat(repository.acquire(resource, owner, LONG)).map(LockRecord::token).contains(1L);
                assertThat(counting.scripts()).as("the script is cached again: EVALSHA only").isEqualTo(1);
            }
            finally {
                factory.destroy();
            }
        }
    }
}

package io.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockRecord;
import io.distlock.core.LockResult;
import io.distlock.redis.testsupport.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Replicas to acknowledge ({@code WAIT}) on the shared test server, which has no replica: an acquisition or renewal
 * that no replica acknowledges ends within the acknowledgement timeout as refused and leaves no key behind; 0 keeps
 * today's behaviour; bad settings are refused naming the property; the replication is read from the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisReplicaAcknowledgementTests {

    private static final Duration TIMEOUT = Duration.ofMillis(200);

    private static final Duration TTL = Duration.ofMinutes(1);

    private String prefix;

    private RedisLockRepository waiting;

    private RedisLockRepository plain;

    @BeforeAll
    void createRepositories() {
        TestRedis.assumeAvailable();
        prefix = TestRedis.newPrefix();
        waiting = RedisLockRepository.builder(TestRedis.connectionFactory()).keyPrefix(prefix)
            .replicasToAcknowledge(1, TIMEOUT).build();
        plain = RedisLockRepository.builder(TestRedis.connectionFactory()).keyPrefix(prefix).build();
    }

    @AfterAll
    void deleteKeys() {
        if (prefix != null) {
            TestRedis.deleteKeys(prefix);
        }
    }

    private static String resource() {
        return "ack:" + UUID.randomUUID();
    }

    @Test
    void acquisitionNoReplicaAcknowledgesEndsWithinTheTimeoutAsNotAcquiredAndLeavesNoKey() {
        String resource = resource();
        long start = System.nanoTime();
        assertThat(waiting.acquire(resource, "a", TTL)).isEmpty();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).isGreaterThanOrEqualTo(TIMEOUT).isLessThan(TIMEOUT.plusSeconds(2));
        assertThat(plain.find(resource)).isEmpty();
        assertThat(TestRedis.template().hasKey(waiting.keys().lockKey(resource))).isFalse();
        assertThat(plain.acquire(resource, "b", TTL)).as("free for the next owner").isPresent();
    }

    @Test
    void renewalNoReplicaAcknowledgesIsRefusedAndGivesTheLockBack() {
        String resource = resource();
        LockRecord held = plain.acquire(resource, "a", TTL).orElseThrow();
        assertThat(waiting.renew(resource, "a", TTL).status()).isEqualTo(LockResult.NOT_FOUND);
        assertThat(plain.find(resource)).isEmpty();
        assertThat(plain.acquire(resource, "b", TTL).orElseThrow().token()).isGreaterThan(held.token());
    }

    @Test
    void batchRenewalNoReplicaAcknowledgesRenewsNothingAndGivesTheLocksBack() {
        String first = resource();
        String second = resource();
        plain.acquire(first, "a", TTL).orElseThrow();
        plain.acquire(second, "b", TTL).orElseThrow();
        assertThat(waiting.renewAll(List.of(new LeaseKey(first, "a"), new LeaseKey(second, "b")), TTL)).isEmpty();
        assertThat(plain.find(first)).isEmpty();
        assertThat(plain.find(second)).isEmpty();
    }

    @Test
    void refusedAcquisitionWroteNothingAndDoesNotWait() {
        String resource = resource();
        LockRecord held = plain.acquire(resource, "a", TTL).orElseThrow();
        long start = System.nanoTime();
        assertThat(waiting.acquire(resource, "b", TTL)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT);
        assertThat(plain.find(resource)).contains(held);
    }

    @Test
    void noReplicasToAcknowledgeKeepsAcquisitionsWithoutWaiting() {
        String resource = resource();
        assertThat(plain.acquire(resource, "a", TTL)).isPresent();
        assertThat(plain.renew(resource, "a", TTL).status()).isEqualTo(LockResult.APPLIED);
    }

    @Test
    void replicationSaysTheServersRoleItsReplicasAndTheMode() {
        RedisReplication replication = waiting.replication();
        assertThat(replication.role()).isEqualTo("master");
        assertThat(replication.connectedReplicas()).isZero();
        assertThat(replication.replicasToAcknowledge()).isEqualTo(1);
        assertThat(replication.waitsForReplicas()).isTrue();
        assertThat(replication.missingReplicas()).isTrue();
        assertThat(replication.describe()).contains("wait for 1 replica(s)");
        assertThat(plain.replication().waitsForReplicas()).isFalse();
        assertThat(plain.replication().describe()).contains("do not wait for replicas");
    }

    @Test
    void startupCheckWarnsNamingThePropertyWhenFewerReplicasAreConnectedThanAcquisitionsWaitFor() {
        Logger logger = (Logger) LoggerFactory.getLogger(RedisLockRepository.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            waiting.verifySchema();
            plain.verifySchema();
        }
        finally {
            logger.detachAppender(appender);
        }
        assertThat(appender.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
            .satisfies(e -> assertThat(e.getFormattedMessage()).contains("only 0 replica(s) are connected")
                .contains("distributed-lock.redis.replicas-to-acknowledge"));
        assertThat(appender.list).filteredOn(e -> e.getLevel() == Level.INFO).singleElement()
            .satisfies(e -> assertThat(e.getFormattedMessage()).contains("do not wait for replicas"));
    }

    @Test
    void negativeReplicasToAcknowledgeAreRefusedNamingTheProperty() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> RedisLockRepository.builder(TestRedis.connectionFactory())
                .replicasToAcknowledge(-1, TIMEOUT))
            .withMessage("replicasToAcknowledge (distributed-lock.redis.replicas-to-acknowledge) must be 0 or more, "
                    + "got -1");
    }

    @Test
    void acknowledgementTimeoutOutsideItsBoundsIsRefusedNamingTheProperty() {
        for (Duration wrong : List.of(Duration.ZERO, Duration.ofSeconds(31))) {
            assertThatIllegalArgumentException()
                .isThrownBy(() -> RedisLockRepository.builder(TestRedis.connectionFactory())
                    .replicasToAcknowledge(1, wrong))
                .withMessage("acknowledgementTimeout (distributed-lock.redis.acknowledgement-timeout) must be from "
                        + "1 ms to PT30S, got " + wrong);
        }
    }
}

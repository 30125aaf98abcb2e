package io.distlock.torture;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import ch.qos.logback.classic.Level;
import io.distlock.core.LockRecord;
import io.distlock.redis.RedisLockRepository;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis failover run of the torture test ({@code scripts/torture.sh --db redis --faults failover}): on a private
 * primary, replica and Sentinel ({@link RedisReplicaServers}), worker threads on connections of their own
 * ({@link FailoverWorker}) take, renew and release a few locks and write to a fenced ledger on the same Redis, while
 * the fault, over and over, freezes the replica at a random moment (SIGSTOP) with acquisitions and renewals in flight
 * and backs its replication up, kills the primary, lets Sentinel promote the replica and brings the old primary back
 * as a replica of the new one. {@code --mode sync} waits for one replica to acknowledge every acquisition and renewal
 * ({@code replicasToAcknowledge(1, …)}), {@code async} does not. Prints one {@code FAILOVER} line; exits 1 when a sync
 * run shows a lost acquisition, overlapping owners, an accepted stale write or a token that went back or repeated,
 * 2 when the run could not be carried out.
 */
public final class RedisFailover {

    private static final Duration ACKNOWLEDGEMENT_TIMEOUT = Duration.ofMillis(200);

    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(30);

    private static final int BACKLOG_BYTES = 16 * 1024 * 1024;

    private static final Duration PROBE_TTL = Duration.ofSeconds(30);

    private final boolean sync;

    private final int failovers;

    private final int workers;

    private final Duration ttl;

    private final Path runDirectory;

    private final List<String> resources = new ArrayList<>();

    private final FailoverHistory history = new FailoverHistory();

    private RedisFailover(Args args) {
        String mode = args.get("mode", "sync").toLowerCase(Locale.ROOT);
        if (!mode.equals("sync") && !mode.equals("async")) {
            throw new IllegalArgumentException("--mode must be sync or async, got '" + mode + "'");
        }
        this.sync = mode.equals("sync");
        this.failovers = args.getInt("failovers", 20);
        this.workers = args.getInt("workers", 6);
        this.ttl = Duration.ofMillis(args.getLong("ttl-ms", 6000));
        this.runDirectory = Path.of(args.get("run-dir", "target/torture/redis-failover"));
        for (int i = 0; i < args.getInt("locks", 3); i++) {
            resources.add("failover-" + i);
        }
        if (failovers < 1 || workers < 1 || resources.isEmpty() || ttl.toMillis() < 1000) {
            throw new IllegalArgumentException("--failovers, --workers and --locks need 1 or more, --ttl-ms 1000 "
                    + "or more");
        }
    }

    /**
     * Runs the failovers and exits with the run's status.
     *
     * @param args {@code [--mode sync|async] [--failovers 20] [--workers 6] [--locks 3] [--ttl-ms 6000]
     *     [--run-dir dir]}
     */
    public static void main(String[] args) {
        int status;
        try {
            status = new RedisFailover(Args.parse(args)).run();
        }
        catch (IllegalArgumentException ex) {
            System.err.println("torture: " + ex.getMessage());
            status = 2;
        }
        System.exit(status);
    }

    private int run() {
        // Lettuce logs every failed reconnect while the primary is down: the run reports the outage itself.
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.lettuce.core.protocol.ConnectionWatchdog"))
            .setLevel(Level.ERROR);
        ClientResources clientResources = ClientResources.builder()
            .reconnectDelay(Delay.constant(Duration.ofMillis(100))).build();
        List<LettuceConnectionFactory> factories = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        try (RedisReplicaServers servers = RedisReplicaServers.start(
                Files.createDirectories(runDirectory).resolve("redis"))) {
            String mode = sync ? "sync" : "async";
            System.out.printf("torture db=redis faults=failover mode=%s failovers=%d workers=%d locks=%d ttl=%dms "
                    + "acknowledgement_timeout=%dms%n  %s%n", mode, failovers, workers, resources.size(),
                    ttl.toMillis(), ACKNOWLEDGEMENT_TIMEOUT.toMillis(), servers);
            for (int i = 0; i < workers; i++) {
                LettuceConnectionFactory factory = factory(servers, clientResources, "failover-worker-" + i);
                factories.add(factory);
                Thread thread = new Thread(new FailoverWorker("w" + i, repository(factory),
                        new RedisFencedLedger(factory, "distlock-failover:", sync ? 1 : 0,
                                ACKNOWLEDGEMENT_TIMEOUT.toMillis()), history, resources, ttl, stop),
                        "failover-worker-" + i);
                threads.add(thread);
            }
            LettuceConnectionFactory controllerFactory = factory(servers, clientResources, "failover-controller");
            factories.add(controllerFactory);
            RedisLockRepository observer = RedisLockRepository.builder(controllerFactory)
                .keyPrefix("distlock-failover:").build();
            RedisLockRepository probes = repository(controllerFactory);
            threads.forEach(Thread::start);
            long lost = 0;
            long unplanned = 0;
            long recoverMaxMillis = 0;
            for (int round = 1; round <= failovers; round++) {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                sleep(random.nextLong(1000, 2500));
                if (servers.followSentinel(PROMOTION_TIMEOUT)) {
                    unplanned++;
                    System.out.println("  the Sentinel failed over by itself before failover " + round);
                }
                Optional<FailoverHistory.Holding> before = probe(probes, "probe-before-" + round);
                servers.freezeReplica();
                servers.backUpReplication(BACKLOG_BYTES);
                Optional<FailoverHistory.Holding> during = probe(probes, "probe-during-" + round);
                sleep(random.nextLong(200, 1200));
                List<FailoverHistory.Holding> live = history.believedAt(System.nanoTime());
                servers.killPrimary();
                long kill = System.nanoTime();
                servers.thawReplica();
                servers.awaitPromotion(PROMOTION_TIMEOUT);
                long roundLost = lostOf(live, observer);
                lost += roundLost;

                servers.rejoinOldPrimary(PROMOTION_TIMEOUT);
                boolean rivalBefore = rival(probes, "probe-before-" + round);
                boolean rivalDuring = rival(probes, "probe-during-" + round);
                long recovered = awaitAcquisitionAfter(kill);
                long recoverMillis = (recovered - kill) / 1_000_000;
                recoverMaxMillis = Math.max(recoverMaxMillis, recoverMillis);
                before.ifPresent(holding -> holding.end(System.nanoTime()));
                during.ifPresent(holding -> holding.end(System.nanoTime()));
                System.out.printf("  failover %d: %d lease(s) believed at the kill, %d lost; first acquisition "
                        + "%d ms after the kill; probe taken before the freeze %s (a rival %s), during it %s (a "
                        + "rival %s)%n", round, live.size(), roundLost, recoverMillis, taken(before),
                        rivalBefore ? "took it too" : "did not get it", taken(during),
                        rivalDuring ? "took it" : "did not get it");
            }
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(ttl.toMillis() * 3);
            }
            long overlaps = history.overlappingOwners();
            long stale = history.staleWritesAccepted();
            long regressions = history.tokenSteps(false);
            long repeats = history.tokenSteps(true);
            System.out.printf("  %d acquisitions, %d ledger writes accepted, %d failover(s) the Sentinel made by "
                    + "itself besides%n", history.acquisitions(), history.writesAccepted(), unplanned);
            history.overlapExamples().forEach(example -> System.out.println("  overlap: " + example));
            System.out.printf("FAILOVER store=redis mode=%s failovers=%d acknowledged_lost=%d overlapping_owners=%d "
                    + "stale_writes_accepted=%d token_regressions=%d token_repeats=%d recover_ms_max=%d%n", mode,
                    failovers, lost, overlaps, stale, regressions, repeats, recoverMaxMillis);
            boolean clean = lost == 0 && overlaps == 0 && stale == 0 && regressions == 0 && repeats == 0;
            if (sync && !clean) {
                System.out.println("torture: FAILED: with replicas to acknowledge, a failover lost a lease or let "
                        + "two owners, a stale write or a repeated token through");
                return 1;
            }
            return 0;
        }
        catch (Exception ex) {
            System.err.println("torture: the run could not be carried out: " + ex);
            ex.printStackTrace();
            return 2;
        }
        finally {
            stop.set(true);
            threads.forEach(Thread::interrupt);
            factories.forEach(LettuceConnectionFactory::destroy);
            clientResources.shutdown();
        }
    }

    /**
     * Takes a lock of its own for the controller, held for {@link #PROBE_TTL} and never renewed: one taken before
     * the freeze, which the replica has, and one during it, which it lacks unless the store waited for it.
     */
    private Optional<FailoverHistory.Holding> probe(RedisLockRepository probes, String resource) {
        long sent = System.nanoTime();
        try {
            return probes.acquire(resource, "controller-" + resource, PROBE_TTL).map(record -> history.acquired(
                    resource, record.owner(), record.token(), System.nanoTime(), sent + PROBE_TTL.toNanos()));
        }
        catch (DataAccessException ex) {
            return Optional.empty();
        }
    }

    /** After the failover, another owner tries the probe's lock, briefly, as a second client would. */
    private boolean rival(RedisLockRepository probes, String resource) {
        long sent = System.nanoTime();
        try {
            Optional<LockRecord> taken = probes.acquire(resource, "rival-" + resource, ttl);
            taken.ifPresent(record -> history.acquired(resource, record.owner(), record.token(), System.nanoTime(),
                    sent + ttl.toNanos()).end(System.nanoTime()));
            taken.ifPresent(record -> probes.release(resource, record.owner(), Duration.ZERO));
            return taken.isPresent();
        }
        catch (DataAccessException ex) {
            return false;
        }
    }

    private static String taken(Optional<FailoverHistory.Holding> probe) {
        return probe.isPresent() ? "yes" : "no";
    }

    /** The leases believed at the kill, still believed now, that the new primary does not hold for their owner. */
    private long lostOf(List<FailoverHistory.Holding> live, RedisLockRepository observer) {
        long lost = 0;
        for (FailoverHistory.Holding holding : live) {
            Optional<LockRecord> found = Optional.empty();
            long deadline = System.nanoTime() + PROMOTION_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    found = observer.find(holding.resource);
                    break;
                }
                catch (RuntimeException ex) {
                    sleep(50);
                }
            }
            boolean held = found.map(record -> record.owner().equals(holding.owner)).orElse(false);
            if (!held && holding.believedAt(System.nanoTime())) {
                lost++;
            }
        }
        return lost;
    }

    private long awaitAcquisitionAfter(long at) {
        long deadline = System.nanoTime() + PROMOTION_TIMEOUT.toNanos() + ttl.toNanos();
        while (System.nanoTime() < deadline) {
            long first = history.firstAcquisitionAfter(at);
            if (first > 0) {
                return first;
            }
            sleep(20);
        }
        throw new IllegalStateException("no worker acquired a lock within " + PROMOTION_TIMEOUT.plus(ttl)
                + " of the failover");
    }

    private RedisLockRepository repository(LettuceConnectionFactory factory) {
        RedisLockRepository.Builder builder = RedisLockRepository.builder(factory).keyPrefix("distlock-failover:");
        if (sync) {
            builder.replicasToAcknowledge(1, ACKNOWLEDGEMENT_TIMEOUT);
        }
        return builder.build();
    }

    private static LettuceConnectionFactory factory(RedisReplicaServers servers, ClientResources resources,
            String clientName) {
        RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration()
            .master(RedisReplicaServers.MASTER_NAME).sentinel("127.0.0.1", servers.sentinelPort());
        LettuceClientConfiguration client = LettuceClientConfiguration.builder().clientName(clientName)
            .clientResources(resources).commandTimeout(Duration.ofSeconds(2)).build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(sentinel, client);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
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
}

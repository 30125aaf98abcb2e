package io.distlock.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import io.distlock.core.BatchRenewal;
import io.distlock.core.ForcedRelease;
import io.distlock.core.LeaseKey;
import io.distlock.core.LockArguments;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.RenewResult;
import io.distlock.core.SchemaVerification;
import io.distlock.core.SlotClaim;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotStore;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;

import static io.distlock.redis.RedisReplies.expectSize;
import static io.distlock.redis.RedisReplies.number;
import static io.distlock.redis.RedisReplies.record;
import static io.distlock.redis.RedisReplies.text;

/**
 * The lock store on Redis (7.0 or later), through a Spring Data Redis {@link RedisConnectionFactory}. Every decision
 * is one Lua script that the server runs atomically: acquire of a free or expired lock, same-owner re-acquire as a
 * renewal that keeps the token, owner-checked renew and release, release honouring a minimum hold, and renewal of a
 * batch of leases. Scripts go out as {@code EVALSHA}, and as {@code EVAL} when the server does not know them yet.
 *
 * <p><b>Keys</b> ({@link RedisLockKeys}): per resource a hash {@code <prefix>{<resource>}:lock} that expires with the
 * lease ({@code PEXPIREAT}) and a counter {@code <prefix>{<resource>}:token} without expiry. The shared hash tag puts
 * both in one Redis Cluster slot, so each single-lock script is valid on a cluster.
 *
 * <p><b>Time</b> is the server's: scripts read {@code TIME} and set absolute expiry instants, so application clocks
 * decide nothing, and the {@code acquiredAt} and {@code expiresAt} of every returned {@link LockRecord} are server
 * time, in milliseconds. A lock whose instant has come counts as absent even while the server still keeps the key.
 *
 * <p><b>Fencing tokens</b> come from {@code INCR} on the counter when a new owner takes the lock, in the same script,
 * so they increase strictly per resource for as long as Redis keeps its data. Neither expiry nor release touches the
 * counter. A restart without persistence, or a failover to a replica that had not received the latest writes, loses
 * counters and can hand out a token again: see the guarantees document.
 *
 * <p><b>Reading</b>: {@link #find} reads one hash; {@link #findAll} walks the key space with {@code SCAN} (never
 * {@code KEYS}), matching the layout's lock keys, then reads them in batches. It costs time proportional to all keys
 * of the database, not only the locks, and it does not block the server: an operator's call, not a hot path. A global
 * index (a sorted set of locks by expiry) would make listing cheap, but every acquire and release would then write to
 * one key, which on Redis Cluster puts all lock operations of the application on a single slot; this store keeps
 * each lock in its own slot instead. On a cluster, {@code SCAN} runs on each primary.
 *
 * <p><b>Batches</b>: {@link #renewAll} sends one script per batch of up to {@value #MAX_BATCH} leases. On Redis
 * Cluster a script may only touch keys of one slot, so batches there group leases by slot (in practice one script
 * per lease).
 *
 * <p><b>Replicas</b>: with {@link Builder#replicasToAcknowledge}, every acquisition and renewal that wrote is
 * followed by {@code WAIT numreplicas timeout} on the same connection; when fewer replicas acknowledge it in time, the
 * store gives the lock back (an owner-checked release, best-effort) and answers "not acquired" or "not renewed", so
 * that a failover to a replica (Sentinel) never loses a lease the application was given. Without it (the default)
 * Redis replicates asynchronously and a failover can lose an acknowledged acquisition. Not supported on Redis Cluster.
 * Slot claims do not wait.
 *
 * <p><b>Faults</b>: when Redis does not answer, a call throws a {@link DataAccessException} and never returns a lease;
 * a lock that the server took before the connection broke expires by its TTL. Arguments are checked with
 * {@link LockArguments} before any command is sent.
 *
 * <p>One concept, hence its length: the Redis store as its users see it — each operation with its documented
 * behaviour, and the builder. The work is done by the classes it wires: {@link RedisCalls} (scripts, {@code SCAN}
 * and batching), {@link ReplicatedWrites} (waiting for replicas), {@link RedisReplies} (reading the answers) and
 * {@link RedisSlotStore} (its {@link SlotStore}).
 */
public final class RedisLockRepository implements LockRepository, BatchRenewal, ForcedRelease, SlotStore,
        SchemaVerification {

    /** Most leases renewed, or locks read, by one script. */
    public static final int MAX_BATCH = 500;

    /** Shortest retention {@link #deleteExpired} accepts, as for the JDBC store. */
    public static final Duration MIN_RETENTION = LockArguments.MIN_RETENTION;

    /** SCAN pages of {@code COUNT 1000} that {@link #verifySchema()} looks at, at most. */
    static final int VERIFY_SCAN_PAGES = 10;

    private static final long APPLIED = 1;

    private static final long FORBIDDEN = -1;


    private final RedisCalls calls;

    private final RedisLockKeys keys;

    private final LockArguments arguments;

    private final RedisSlotStore slots;

    private final ReplicatedWrites replicated;

    private RedisLockRepository(Builder builder) {
        this.keys = builder.keys;
        this.calls = new RedisCalls(builder.connectionFactory, keys);
        this.replicated = new ReplicatedWrites(calls, keys, builder.acknowledgement);
        this.arguments = LockArguments.withMaxTtl(builder.maxTtl);
        this.slots = new RedisSlotStore(calls, keys);
    }

    /**
     * Starts building a repository on a connection factory.
     *
     * @param connectionFactory the connections to Redis, such as Spring Boot's auto-configured one
     * @return the builder
     */
    public static Builder builder(RedisConnectionFactory connectionFactory) {
        return new Builder(connectionFactory);
    }

    /**
     * The key layout in use.
     *
     * @return the keys
     */
    public RedisLockKeys keys() {
        return keys;
    }

    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        long ttlMillis = arguments.lease(resource, owner, ttl);
        List<Object> reply = replicated.run(RedisLockRepository::applied,
                LockScripts.ACQUIRE, List.of(keys.lockKey(resource), keys.tokenKey(resource)), resource, owner,
                Long.toString(ttlMillis));
        if (reply == null) {
            replicated.giveBack(resource, owner, "acquisition");
            return Optional.empty();
        }
        if (!applied(reply)) {
            return Optional.empty();
        }
        return Optional.of(record(resource, owner, reply, 1));
    }

    /**
     * {@inheritDoc}
     *
     * <p>With {@link Builder#replicasToAcknowledge}, a renewal that fewer replicas acknowledged in time gives the
     * lock back and answers {@link LockResult#NOT_FOUND}: the holder never believes in an expiry a replica lacks.
     */
    @Override
    public RenewResult renew(String resource, String owner, Duration ttl) {
        long ttlMillis = arguments.lease(resource, owner, ttl);
        List<Object> reply = replicated.run(RedisLockRepository::applied, LockScripts.RENEW,
                List.of(keys.lockKey(resource)), owner, Long.toString(ttlMillis));
        if (reply == null) {
            replicated.giveBack(resource, owner, "renewal");
            return RenewResult.refused(LockResult.NOT_FOUND);
        }
        long status = number(reply, 0);
        if (status == APPLIED) {
            return RenewResult.renewed(record(resource, owner, reply, 1));
        }
        return RenewResult.refused(refusal(status));
    }

    /**
     * Renews many leases with one script per batch of up to {@value #MAX_BATCH} (on Redis Cluster, per slot). With
     * {@link Builder#replicasToAcknowledge}, the leases of a batch that fewer replicas acknowledged in time are given
     * back and left out of the answer.
     */
    @Override
    public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
        long ttlMillis = arguments.leases(leases, ttl);
        List<LeaseKey> distinct = new ArrayList<>(new LinkedHashSet<>(leases));
        Map<LeaseKey, LockRecord> renewed = new LinkedHashMap<>();
        for (List<LeaseKey> batch : calls.batches(distinct, lease -> keys.lockKey(lease.resource()))) {
            List<String> lockKeys = new ArrayList<>(batch.size());
            String[] args = new String[batch.size() + 1];
            args[0] = Long.toString(ttlMillis);
            for (int i = 0; i < batch.size(); i++) {
                lockKeys.add(keys.lockKey(batch.get(i).resource()));
                args[i + 1] = batch.get(i).owner();
            }
            List<Object> reply = replicated.run(r -> renewedAny(r, batch.size()),
                    LockScripts.RENEW_ALL, lockKeys, args);
            if (reply == null) {
                batch.forEach(lease -> replicated.giveBack(lease.resource(), lease.owner(), "renewal"));
                continue;
            }
            expectSize(reply, 1 + 2 * batch.size());
            Instant expiresAt = Instant.ofEpochMilli(number(reply, 0));
            for (int i = 0; i < batch.size(); i++) {
                long token = number(reply, 1 + 2 * i);
                if (token > 0) {
                    LeaseKey lease = batch.get(i);
                    renewed.put(lease, new LockRecord(lease.resource(), lease.owner(), token,
                            Instant.ofEpochMilli(number(reply, 2 + 2 * i)), expiresAt));
                }
            }
        }
        return renewed;
    }

    /**
     * Gives up a lock, keeping it held until {@code acquiredAt + minHold} when that is still ahead; otherwise the lock
     * hash is deleted. The token counter stays, so the next owner gets a larger token.
     */
    @Override
    public LockResult release(String resource, String owner, Duration minHold) {
        long minHoldMillis = arguments.release(resource, owner, minHold);
        List<Object> reply = calls.run(LockScripts.RELEASE, List.of(keys.lockKey(resource)), owner,
                Long.toString(minHoldMillis));
        long status = number(reply, 0);
        return status == APPLIED ? LockResult.APPLIED : refusal(status);
    }

    /**
     * Deletes the lock hash of the live lock with that token in one script; the token counter stays, so every next
     * holder draws a larger token.
     */
    @Override
    public LockResult forceRelease(String resource, long token) {
        LockArguments.requireResource(resource);
        long status = number(calls.run(LockScripts.FORCE_RELEASE, List.of(keys.lockKey(resource)),
                Long.toString(token)), 0);
        return status == APPLIED ? LockResult.APPLIED : refusal(status);
    }

    @Override
    public Optional<LockRecord> find(String resource) {
        LockArguments.requireResource(resource);
        return read(List.of(keys.lockKey(resource))).stream().findFirst();
    }

    /**
     * Lists every live lock, ordered by resource: a {@code SCAN} of the whole database for the layout's lock keys
     * (on Redis Cluster, of every primary), then one read script per batch of keys. The cost grows with the number of
     * keys in the database, not only with the locks; the server is never blocked for long.
     */
    @Override
    public List<LockRecord> findAll() {
        List<String> lockKeys = calls.scan(keys.lockPattern());
        lockKeys.removeIf(key -> !keys.isLockKey(key));
        List<LockRecord> records = new ArrayList<>();
        for (List<String> batch : calls.batches(lockKeys, Function.identity())) {
            records.addAll(read(batch));
        }
        records.sort(Comparator.comparing(LockRecord::resource));
        return records;
    }

    /**
     * {@inheritDoc}
     *
     * <p>In one script on the job's keys (one hash tag, so one slot of a Redis Cluster): the caller's live lock, the
     * job's last claimed slot (a hash that never expires) and its runs (a list of the last
     * {@value SlotRun#KEPT_PER_JOB}), against the server's clock ({@code TIME}).
     */
    @Override
    public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        return slots.claimSlot(job, owner, slot, rerunUnfinished);
    }

    @Override
    public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        slots.finishSlot(job, slot, token, outcome);
    }

    /**
     * The latest slot runs; for every job, one {@code SCAN} over the runs lists of the prefix (as {@link #findAll()}
     * does for locks) and one {@code LRANGE} per job.
     */
    @Override
    public List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        return slots.recentSlotRuns(job, limit);
    }

    /** Slots are kept: nothing to check beyond {@link #verifySchema()}. */
    @Override
    public void verifySlots() {
        slots.verifySlots();
    }

    @Override
    public LockArguments arguments() {
        return arguments;
    }

    /**
     * Does nothing and returns 0: lock hashes expire by themselves. Token counters are kept on purpose: deleting one
     * would start the resource's tokens again at 1.
     *
     * @param retention checked as for the JDBC store (at least one minute), otherwise unused
     * @return 0
     */
    @Override
    public int deleteExpired(Duration retention) {
        LockArguments.retention(retention);
        return 0;
    }

    /**
     * Checks that Redis answers with the given credentials, runs the lock scripts (version 7.0 or later, scripting
     * allowed for this user), that replicas to acknowledge are not asked of a Redis Cluster, and that the keys of the
     * layout it finds in a bounded {@code SCAN} (at most {@value #VERIFY_SCAN_PAGES} pages of {@code COUNT 1000}, on
     * one node of a cluster) have the layout's types.
     * Every script also checks the types of the keys it touches, so a conflicting key elsewhere fails the operation
     * that meets it with the same message. Logs the replication mode ({@link #replication()}): a WARN when
     * acquisitions wait for more replicas than are connected, or when replicas are connected and they do not wait.
     *
     * @throws RedisLockStoreException saying what is wrong and what to do
     */
    @Override
    public void verifySchema() {
        ping();
        try {
            calls.template().execute(LockScripts.PROBE, List.of(), keys.layoutPattern(),
                    Integer.toString(VERIFY_SCAN_PAGES));
        }
        catch (DataAccessException ex) {
            throw RedisFailures.ofProbe(ex, keys);
        }
        replicated.requireStandalone();
        replicated.logReplication();
    }

    /**
     * Sends {@code PING} on the repository's connections: what a health check calls.
     *
     * @return how long the answer took
     * @throws RedisLockStoreException when Redis does not answer or refuses the credentials
     */
    public Duration ping() {
        long start = System.nanoTime();
        try {
            calls.template().execute((RedisCallback<String>) RedisConnection::ping);
        }
        catch (DataAccessException ex) {
            throw RedisFailures.ofPing(ex);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Reads what the server says about its replication ({@code INFO replication}) and whether acquisitions wait for
     * replicas: what the start-up log line and the health details show.
     *
     * @return the server's role, its connected replicas and the store's acknowledgement setting
     * @throws DataAccessException when Redis does not answer
     */
    public RedisReplication replication() {
        return replicated.replication();
    }

    private static boolean applied(List<Object> reply) {
        return number(reply, 0) == APPLIED;
    }

    private static boolean renewedAny(List<Object> reply, int leases) {
        expectSize(reply, 1 + 2 * leases);
        for (int i = 0; i < leases; i++) {
            if (number(reply, 1 + 2 * i) > 0) {
                return true;
            }
        }
        return false;
    }

    private List<LockRecord> read(List<String> lockKeys) {
        List<Object> reply = calls.run(LockScripts.READ, lockKeys);
        expectSize(reply, lockKeys.size());
        List<LockRecord> records = new ArrayList<>();
        for (Object entry : reply) {
            if (entry instanceof List<?> fields && !fields.isEmpty()) {
                @SuppressWarnings("unchecked")
                List<Object> values = (List<Object>) fields;
                expectSize(values, 5);
                records.add(record(text(values, 0), text(values, 1), values, 2));
            }
        }
        return records;
    }

    private static LockResult refusal(long status) {
        return status == FORBIDDEN ? LockResult.FORBIDDEN : LockResult.NOT_FOUND;
    }

    /**
     * Configures a {@link RedisLockRepository}.
     */
    public static final class Builder {

        private final RedisConnectionFactory connectionFactory;

        private RedisLockKeys keys = new RedisLockKeys(RedisLockKeys.DEFAULT_PREFIX);

        private Duration maxTtl = LockArguments.DEFAULT_MAX_TTL;

        private ReplicaAcknowledgement acknowledgement = ReplicaAcknowledgement.NONE;

        private Builder(RedisConnectionFactory connectionFactory) {
            this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        }

        /**
         * Sets the prefix of every key; default {@value RedisLockKeys#DEFAULT_PREFIX}. Give each application that
         * shares a Redis database its own prefix unless they are meant to share locks.
         *
         * @param keyPrefix 1 to 64 characters, without braces, whitespace or control characters
         * @return this builder
         */
        public Builder keyPrefix(String keyPrefix) {
            this.keys = new RedisLockKeys(keyPrefix);
            return this;
        }

        /**
         * Sets the longest lease accepted; default one day. Longer TTLs are rejected as a likely unit mistake.
         *
         * @param maxTtl the cap
         * @return this builder
         */
        public Builder maxTtl(Duration maxTtl) {
            this.maxTtl = LockArguments.withMaxTtl(maxTtl).maxTtl();
            return this;
        }

        /**
         * Makes every acquisition and renewal wait until {@code replicas} replicas acknowledged it
         * ({@code WAIT replicas timeout} on the same connection), and give the lock back and answer "not acquired"
         * or "not renewed" when they do not within {@code timeout}; default 0, no waiting. A failover to a replica
         * that acknowledged then never loses a lease the application was given. Not supported on Redis Cluster.
         * On Lettuce's shared connection (Spring Boot's default) a {@code WAIT} holds up the commands behind it on
         * that connection until the replicas answer: about one replica round trip, up to {@code timeout} while they
         * lag.
         *
         * @param replicas 0 or more
         * @param timeout longest wait, from 1 ms to 30 s; shorter than the client's command timeout
         * @return this builder
         */
        public Builder replicasToAcknowledge(int replicas, Duration timeout) {
            this.acknowledgement = new ReplicaAcknowledgement(replicas, timeout);
            return this;
        }

        /**
         * Builds the repository. Nothing is sent to Redis until the first call.
         *
         * @return the repository
         */
        public RedisLockRepository build() {
            return new RedisLockRepository(this);
        }
    }
}

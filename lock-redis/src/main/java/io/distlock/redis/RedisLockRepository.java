package io.distlock.redis;

import java.nio.charset.StandardCharsets;
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
import java.util.Set;
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
import io.distlock.core.SlotRequest;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;
import io.distlock.core.SlotStore;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

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
 * <p><b>Faults</b>: when Redis does not answer, a call throws a {@link DataAccessException} and never returns a lease;
 * a lock that the server took before the connection broke expires by its TTL. Arguments are checked with
 * {@link LockArguments} before any command is sent.
 */
public final class RedisLockRepository implements LockRepository, BatchRenewal, ForcedRelease, SlotStore,
        SchemaVerification {

    /** Most leases renewed, or locks read, by one script. */
    public static final int MAX_BATCH = 500;

    /** Shortest retention {@link #deleteExpired} accepts, as for the JDBC store. */
    public static final Duration MIN_RETENTION = LockArguments.MIN_RETENTION;

    /** SCAN pages of {@code COUNT 1000} that {@link #verifySchema()} looks at, at most. */
    static final int VERIFY_SCAN_PAGES = 10;

    private static final int SCAN_COUNT = 1000;

    private static final long APPLIED = 1;

    private static final long FORBIDDEN = -1;

    private final RedisConnectionFactory connectionFactory;

    private final StringRedisTemplate redis;

    private final RedisLockKeys keys;

    private final LockArguments arguments;

    private volatile @Nullable Boolean clustered;

    private RedisLockRepository(Builder builder) {
        this.connectionFactory = builder.connectionFactory;
        this.redis = new StringRedisTemplate(builder.connectionFactory);
        this.keys = builder.keys;
        this.arguments = LockArguments.withMaxTtl(builder.maxTtl);
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
        List<Object> reply = run(LockScripts.ACQUIRE, List.of(keys.lockKey(resource), keys.tokenKey(resource)),
                resource, owner, Long.toString(ttlMillis));
        if (number(reply, 0) != APPLIED) {
            return Optional.empty();
        }
        return Optional.of(record(resource, owner, reply, 1));
    }

    @Override
    public RenewResult renew(String resource, String owner, Duration ttl) {
        long ttlMillis = arguments.lease(resource, owner, ttl);
        List<Object> reply = run(LockScripts.RENEW, List.of(keys.lockKey(resource)), owner, Long.toString(ttlMillis));
        long status = number(reply, 0);
        if (status == APPLIED) {
            return RenewResult.renewed(record(resource, owner, reply, 1));
        }
        return RenewResult.refused(refusal(status));
    }

    /**
     * Renews many leases with one script per batch of up to {@value #MAX_BATCH} (on Redis Cluster, per slot).
     */
    @Override
    public Map<LeaseKey, LockRecord> renewAll(Collection<LeaseKey> leases, Duration ttl) {
        long ttlMillis = arguments.leases(leases, ttl);
        List<LeaseKey> distinct = new ArrayList<>(new LinkedHashSet<>(leases));
        Map<LeaseKey, LockRecord> renewed = new LinkedHashMap<>();
        for (List<LeaseKey> batch : batches(distinct, lease -> keys.lockKey(lease.resource()))) {
            List<String> lockKeys = new ArrayList<>(batch.size());
            String[] args = new String[batch.size() + 1];
            args[0] = Long.toString(ttlMillis);
            for (int i = 0; i < batch.size(); i++) {
                lockKeys.add(keys.lockKey(batch.get(i).resource()));
                args[i + 1] = batch.get(i).owner();
            }
            List<Object> reply = run(LockScripts.RENEW_ALL, lockKeys, args);
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
        List<Object> reply = run(LockScripts.RELEASE, List.of(keys.lockKey(resource)), owner,
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
        long status = number(run(LockScripts.FORCE_RELEASE, List.of(keys.lockKey(resource)), Long.toString(token)), 0);
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
        List<String> lockKeys = scanLockKeys();
        List<LockRecord> records = new ArrayList<>();
        for (List<String> batch : batches(lockKeys, Function.identity())) {
            records.addAll(read(batch));
        }
        records.sort(Comparator.comparing(LockRecord::resource));
        return records;
    }

    /**
     * Claims a scheduled slot in one script on the job's keys (one hash tag, so one slot of a Redis Cluster): the
     * caller's live lock, the job's last claimed slot (a hash that never expires) and its runs (a list of the last
     * {@value SlotRun#KEPT_PER_JOB}), against the server's clock ({@code TIME}).
     */
    @Override
    public SlotClaim claimSlot(String job, String owner, Instant slot, boolean rerunUnfinished) {
        LockArguments.slotClaim(job, owner, slot);
        List<Object> reply = run(LockScripts.CLAIM_SLOT, List.of(keys.lockKey(job), keys.slotKey(job),
                keys.runsKey(job)), owner, Long.toString(slot.toEpochMilli()), rerunUnfinished ? "1" : "0",
                Integer.toString(SlotRun.KEPT_PER_JOB), Long.toString(SlotRequest.EARLY_TOLERANCE.toMillis()));
        long status = number(reply, 0);
        if (status == 0) {
            return SlotClaim.refused(SlotClaim.Status.NOT_HELD, null);
        }
        if (status < 0) {
            expectSize(reply, 2);
            return SlotClaim.refused(status == -2 ? SlotClaim.Status.TOO_EARLY : SlotClaim.Status.NOT_LATER,
                    Instant.ofEpochMilli(number(reply, 1)));
        }
        expectSize(reply, 6);
        long previous = number(reply, 2);
        return new SlotClaim(SlotClaim.Status.CLAIMED, (int) number(reply, 1),
                previous < 0 ? null : Instant.ofEpochMilli(previous), number(reply, 3) == 1, number(reply, 4),
                Instant.ofEpochMilli(number(reply, 5)));
    }

    @Override
    public void finishSlot(String job, Instant slot, long token, SlotRunOutcome outcome) {
        LockArguments.slotFinish(job, slot, outcome);
        run(LockScripts.FINISH_SLOT, List.of(keys.slotKey(job), keys.runsKey(job)),
                Long.toString(slot.toEpochMilli()), Long.toString(token), outcome.name());
    }

    /**
     * The latest slot runs; for every job, one {@code SCAN} over the runs lists of the prefix (as {@link #findAll()}
     * does for locks) and one {@code LRANGE} per job.
     */
    @Override
    public List<SlotRun> recentSlotRuns(@Nullable String job, int limit) {
        LockArguments.slotRuns(job, limit);
        List<String> jobs = new ArrayList<>();
        if (job != null) {
            jobs.add(job);
        }
        else {
            for (String key : scanKeys(keys.runsPattern())) {
                String found = keys.jobOfRunsKey(key);
                if (found != null) {
                    jobs.add(found);
                }
            }
            jobs.sort(Comparator.naturalOrder());
        }
        List<SlotRun> runs = new ArrayList<>();
        for (String each : jobs) {
            List<String> entries;
            try {
                entries = redis.opsForList().range(keys.runsKey(each), 0, limit - 1L);
            }
            catch (DataAccessException ex) {
                throw RedisFailures.ofScript(ex, keys);
            }
            for (String entry : entries == null ? List.<String>of() : entries) {
                runs.add(slotRun(each, entry));
            }
        }
        return runs;
    }

    /** Slots are kept: nothing to check beyond {@link #verifySchema()}. */
    @Override
    public void verifySlots() {
    }

    private static SlotRun slotRun(String job, String entry) {
        String[] fields = entry.split("\\|", 7);
        if (fields.length != 7) {
            throw new RedisSystemException("Unexpected slot run entry of job '" + job + "': " + entry, null);
        }
        return new SlotRun(job, Instant.ofEpochMilli(Long.parseLong(fields[0])), Integer.parseInt(fields[1]),
                fields[6], Long.parseLong(fields[2]), Instant.ofEpochMilli(Long.parseLong(fields[3])),
                fields[4].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(fields[4])),
                SlotRunOutcome.valueOf(fields[5]));
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
     * allowed for this user), and that the keys of the layout it finds in a bounded {@code SCAN} (at most
     * {@value #VERIFY_SCAN_PAGES} pages of {@code COUNT 1000}, on one node of a cluster) have the layout's types.
     * Every script also checks the types of the keys it touches, so a conflicting key elsewhere fails the operation
     * that meets it with the same message.
     *
     * @throws RedisLockStoreException saying what is wrong and what to do
     */
    @Override
    public void verifySchema() {
        ping();
        try {
            redis.execute(LockScripts.PROBE, List.of(), keys.layoutPattern(), Integer.toString(VERIFY_SCAN_PAGES));
        }
        catch (DataAccessException ex) {
            throw RedisFailures.ofProbe(ex, keys);
        }
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
            redis.execute((RedisCallback<String>) RedisConnection::ping);
        }
        catch (DataAccessException ex) {
            throw RedisFailures.ofPing(ex);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private List<LockRecord> read(List<String> lockKeys) {
        List<Object> reply = run(LockScripts.READ, lockKeys);
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

    private List<String> scanLockKeys() {
        List<String> found = scanKeys(keys.lockPattern());
        found.removeIf(key -> !keys.isLockKey(key));
        return found;
    }

    private List<String> scanKeys(String pattern) {
        ScanOptions options = ScanOptions.scanOptions().match(pattern).count(SCAN_COUNT).build();
        Set<String> found = new LinkedHashSet<>();
        try (RedisConnection connection = connectionFactory.getConnection()) {
            if (connection instanceof RedisClusterConnection cluster) {
                for (RedisClusterNode node : cluster.clusterGetNodes()) {
                    if (node.isMaster()) {
                        collect(cluster.scan(node, options), found);
                    }
                }
            }
            else {
                collect(connection.keyCommands().scan(options), found);
            }
        }
        return new ArrayList<>(found);
    }

    private static void collect(Cursor<byte[]> cursor, Set<String> found) {
        try (cursor) {
            cursor.forEachRemaining(key -> found.add(new String(key, StandardCharsets.UTF_8)));
        }
    }

    /**
     * Splits items into script calls of at most {@value #MAX_BATCH}; on Redis Cluster, each call's keys in one slot.
     */
    private <T> List<List<T>> batches(List<T> items, Function<T, String> key) {
        List<List<T>> batches = new ArrayList<>();
        if (items.isEmpty()) {
            return batches;
        }
        Collection<List<T>> groups;
        if (clustered()) {
            Map<Integer, List<T>> bySlot = new LinkedHashMap<>();
            for (T item : items) {
                bySlot.computeIfAbsent(ClusterSlotHashUtil.calculateSlot(key.apply(item)), s -> new ArrayList<>())
                        .add(item);
            }
            groups = bySlot.values();
        }
        else {
            groups = List.of(items);
        }
        for (List<T> group : groups) {
            for (int from = 0; from < group.size(); from += MAX_BATCH) {
                batches.add(group.subList(from, Math.min(group.size(), from + MAX_BATCH)));
            }
        }
        return batches;
    }

    private boolean clustered() {
        Boolean known = clustered;
        if (known == null) {
            try (RedisConnection connection = connectionFactory.getConnection()) {
                known = connection instanceof RedisClusterConnection;
            }
            clustered = known;
        }
        return known;
    }

    private <T> T run(RedisScript<T> script, List<String> scriptKeys, String... args) {
        T reply;
        try {
            reply = redis.execute(script, scriptKeys, (Object[]) args);
        }
        catch (DataAccessException ex) {
            throw RedisFailures.ofScript(ex, keys);
        }
        if (reply == null) {
            throw new RedisSystemException("Redis answered a lock script with no reply", null);
        }
        return reply;
    }

    private static LockResult refusal(long status) {
        return status == FORBIDDEN ? LockResult.FORBIDDEN : LockResult.NOT_FOUND;
    }

    private static LockRecord record(String resource, String owner, List<Object> values, int from) {
        expectSize(values, from + 3);
        return new LockRecord(resource, owner, number(values, from), Instant.ofEpochMilli(number(values, from + 1)),
                Instant.ofEpochMilli(number(values, from + 2)));
    }

    private static void expectSize(List<?> reply, int size) {
        if (reply.size() < size) {
            throw new RedisSystemException("Unexpected reply to a lock script: " + reply, null);
        }
    }

    private static long number(List<Object> reply, int index) {
        Object value = reply.get(index);
        try {
            if (value instanceof Number n) {
                return n.longValue();
            }
            if (value instanceof String s) {
                return Long.parseLong(s);
            }
        }
        catch (NumberFormatException ex) {
            // reported below
        }
        throw new RedisSystemException("Unexpected value at " + index + " of a lock script's reply: " + reply, null);
    }

    private static String text(List<Object> reply, int index) {
        Object value = reply.get(index);
        if (value instanceof String s && !s.isEmpty()) {
            return s;
        }
        throw new RedisSystemException("Unexpected value at " + index + " of a lock script's reply: " + reply, null);
    }

    /**
     * Configures a {@link RedisLockRepository}.
     */
    public static final class Builder {

        private final RedisConnectionFactory connectionFactory;

        private RedisLockKeys keys = new RedisLockKeys(RedisLockKeys.DEFAULT_PREFIX);

        private Duration maxTtl = LockArguments.DEFAULT_MAX_TTL;

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
         * Builds the repository. Nothing is sent to Redis until the first call.
         *
         * @return the repository
         */
        public RedisLockRepository build() {
            return new RedisLockRepository(this);
        }
    }
}

package io.distlock.spring.actuate;

import java.time.Instant;
import java.util.List;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRecord;
import io.distlock.core.LockRepository;
import io.distlock.core.LockResult;
import io.distlock.core.OwnerFingerprint;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code locks} endpoint: who holds what, which leases this process holds, and a force-release for operators.
 * Exposed only as the application's endpoint exposure settings say.
 */
@Endpoint(id = "locks")
public class LocksEndpoint {

    /** How many of each {@code @OncePerSlot} job's latest slot runs the endpoint shows. */
    static final int RECENT_SLOTS = 5;


    private static final Logger logger = LoggerFactory.getLogger(LocksEndpoint.class);

    private final LockRepository repository;

    private final LockManager manager;

    /**
     * Creates the endpoint.
     *
     * @param repository the lock table
     * @param manager the manager whose leases this process holds
     */
    public LocksEndpoint(LockRepository repository, LockManager manager) {
        this.repository = repository;
        this.manager = manager;
    }

    /**
     * Lists unexpired locks and this process's leases.
     *
     * @return the descriptor
     */
    @ReadOperation
    public LocksDescriptor locks() {
        return new LocksDescriptor(repository.findAll().stream().map(LockDescriptor::of).toList(),
                manager.activeLeases().stream().map(LeaseDescriptor::of).toList(),
                SlotStore.recentRuns(repository, null, RECENT_SLOTS));
    }

    /**
     * Reads one live lock.
     *
     * @param resource the resource
     * @return the lock, or {@code null} (404) when absent or expired
     */
    @ReadOperation
    public @Nullable LockDescriptor lock(@Selector String resource) {
        return repository.find(resource).map(LockDescriptor::of).orElse(null);
    }

    /**
     * Releases a live lock whoever holds it. The holder is not told; it learns at its next renewal.
     *
     * @param resource the resource
     * @return the lock that was released, or {@code null} (no content) when there was none
     */
    @DeleteOperation
    public @Nullable LockDescriptor forceRelease(@Selector String resource) {
        LockRecord record = repository.find(resource).orElse(null);
        if (record == null || repository.release(resource, record.owner()) != LockResult.APPLIED) {
            return null;
        }
        logger.warn("Force-released the lock on '{}' held by owner {} (token {}) through the locks endpoint",
                resource, OwnerFingerprint.of(record.owner()), record.token());
        return LockDescriptor.of(record);
    }

    /**
     * The endpoint's answer.
     *
     * @param locks the unexpired locks in the table
     * @param held the leases this process holds
     * @param slots the latest runs of each once-per-slot job, newest first
     */
    public record LocksDescriptor(List<LockDescriptor> locks, List<LeaseDescriptor> held, List<SlotRun> slots)
            implements OperationResponseBody {
    }

    /**
     * One lock.
     *
     * @param resource the resource
     * @param owner the holder's owner token
     * @param token the fencing token
     * @param acquiredAt when the holder took it
     * @param expiresAt when it runs out unless renewed
     */
    public record LockDescriptor(String resource, String owner, long token, Instant acquiredAt, Instant expiresAt)
            implements OperationResponseBody {

        static LockDescriptor of(LockRecord record) {
            return new LockDescriptor(record.resource(), record.owner(), record.token(), record.acquiredAt(),
                    record.expiresAt());
        }
    }

    /**
     * One lease this process holds.
     *
     * @param name the lock's name, such as its resource template
     * @param resource the resource
     * @param owner the owner token
     * @param token the fencing token
     * @param expiresAt when it runs out unless renewed, as of its last renewal
     */
    public record LeaseDescriptor(String name, String resource, String owner, long token, Instant expiresAt) {

        static LeaseDescriptor of(Lease lease) {
            return new LeaseDescriptor(lease.metricsLabel(), lease.resource(), lease.owner(), lease.token(),
                    lease.expiresAt());
        }
    }
}

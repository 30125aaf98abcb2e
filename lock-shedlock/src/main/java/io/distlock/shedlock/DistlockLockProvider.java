package io.distlock.shedlock;

import java.util.Objects;
import java.util.Optional;

import javax.sql.DataSource;

import io.distlock.core.LockRepository;
import io.distlock.core.OwnerGenerator;
import io.distlock.core.RandomOwnerGenerator;
import io.distlock.jdbc.JdbcLockRepository;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@code LockProvider} whose locks live in a distlock {@link LockRepository}, so that a ShedLock
 * application can switch its lock storage first and its annotations later. ShedLock's attributes keep their meaning:
 * {@code lockAtMostFor} is the lock's TTL (counted on the store's clock, not the application's), {@code lockAtLeastFor}
 * keeps the lock held after {@code unlock()} until that long after the acquisition, and
 * {@link SimpleLock#extend} (ShedLock's {@code LockExtender}) renews it. Each acquisition gets an owner token of its
 * own, so only the holder's {@code unlock()} gives a lock back, and locks are not re-entrant, as in ShedLock.
 */
public final class DistlockLockProvider implements ExtensibleLockProvider {

    private final LockRepository repository;

    private final OwnerGenerator owners;

    /**
     * A provider on a lock store, with random owner tokens.
     *
     * @param repository where the locks live: {@code JdbcLockRepository}, {@code RedisLockRepository}, or the
     *     starter's {@code LockRepository} bean
     */
    public DistlockLockProvider(LockRepository repository) {
        this(repository, new RandomOwnerGenerator());
    }

    /**
     * A provider on a lock store.
     *
     * @param repository where the locks live
     * @param owners where each acquisition's owner token comes from
     */
    public DistlockLockProvider(LockRepository repository, OwnerGenerator owners) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.owners = Objects.requireNonNull(owners, "owners");
    }

    /**
     * A provider on the lock table {@code distributed_locks} of a database (H2, PostgreSQL or MariaDB, detected).
     *
     * @param dataSource the database
     * @return the provider
     */
    public static DistlockLockProvider on(DataSource dataSource) {
        return new DistlockLockProvider(JdbcLockRepository.builder(dataSource).build());
    }

    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        String owner = owners.nextOwner();
        return repository.acquire(configuration.getName(), owner, configuration.getLockAtMostFor())
                .map(record -> new DistlockSimpleLock(repository, record, configuration.getLockAtLeastFor()));
    }
}

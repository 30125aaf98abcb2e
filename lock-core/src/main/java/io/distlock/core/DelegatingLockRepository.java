package io.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link LockRepository} that hands every call to another one, as Spring's {@code DelegatingDataSource} does for
 * data sources. A wrapper that acts before every call overrides {@link #target()}; one that times, counts or holds
 * back an operation overrides that operation; one that does so for a capability implements it, and then answers it
 * itself. Every other capability of the wrapped store — slots, renewal reservations, release feeds — is the wrapped
 * store's own, so that it keeps working through the wrapper. Arguments are checked by the wrapped store's rules
 * ({@link LockRepository#arguments()}) before the wrapper does anything.
 */
public class DelegatingLockRepository implements LockRepository {

    private final LockRepository delegate;

    /**
     * Wraps a repository.
     *
     * @param delegate the repository every call goes to
     */
    public DelegatingLockRepository(LockRepository delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * The wrapped repository.
     *
     * @return it
     */
    public final LockRepository delegate() {
        return delegate;
    }

    /**
     * The repository each lock operation goes to, asked once per call after its arguments were checked: the
     * {@link #delegate()}, unless a subclass acts first.
     *
     * @return the repository the call goes to
     */
    protected LockRepository target() {
        return delegate;
    }

    @Override
    public Optional<LockRecord> acquire(String resource, String owner, Duration ttl) {
        arguments().lease(resource, owner, ttl);
        return target().acquire(resource, owner, ttl);
    }

    @Override
    public RenewResult renew(String resource, String owner, Duration ttl) {
        arguments().lease(resource, owner, ttl);
        return target().renew(resource, owner, ttl);
    }

    @Override
    public LockResult release(String resource, String owner, Duration minHold) {
        arguments().release(resource, owner, minHold);
        return target().release(resource, owner, minHold);
    }

    @Override
    public Optional<LockRecord> find(String resource) {
        LockArguments.requireResource(resource);
        return target().find(resource);
    }

    @Override
    public List<LockRecord> findAll() {
        return target().findAll();
    }

    @Override
    public int deleteExpired(Duration retention) {
        LockArguments.retention(retention);
        return target().deleteExpired(retention);
    }

    @Override
    public LockArguments arguments() {
        return delegate.arguments();
    }

    /**
     * {@inheritDoc}
     *
     * <p>This wrapper when it implements the capability itself; otherwise the wrapped store's.
     */
    @Override
    public <C> Optional<C> capability(Class<C> type) {
        return type.isInstance(this) ? Optional.of(type.cast(this)) : delegate.capability(type);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}

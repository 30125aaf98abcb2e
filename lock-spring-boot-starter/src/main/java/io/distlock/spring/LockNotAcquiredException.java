package io.distlock.spring;

import java.util.Optional;

import io.distlock.core.LockRecord;
import io.distlock.core.OwnerFingerprint;
import org.jspecify.annotations.Nullable;

/**
 * Another owner holds the lock a {@link DistributedLock} method needs, with {@link OnLocked#THROW}, or still held it
 * when {@link OnLocked#WAIT} gave up. The method did not run.
 *
 * <p>Whoever knows an owner token may release or renew its lock, so the message shows the holder's
 * {@link OwnerFingerprint} only; {@link #holder()} has the full record.
 */
public class LockNotAcquiredException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String resource;

    private final transient @Nullable LockRecord holder;

    /**
     * Creates the exception.
     *
     * @param resource the resource that could not be locked
     * @param holder the lock as last read, or {@code null} when it could not be read (it may just have expired)
     * @param detail what was tried, such as "waited PT5S"; may be empty
     * @param cause what interrupted the attempt, if anything
     */
    public LockNotAcquiredException(String resource, @Nullable LockRecord holder, String detail,
            @Nullable Throwable cause) {
        super(message(resource, holder, detail), cause);
        this.resource = resource;
        this.holder = holder;
    }

    /**
     * The resource that could not be locked.
     *
     * @return the resource name
     */
    public String resource() {
        return resource;
    }

    /**
     * The lock as read after the attempt failed, with the holder's full owner token.
     *
     * @return the holder's record, or empty when it could not be read
     */
    public Optional<LockRecord> holder() {
        return Optional.ofNullable(holder);
    }

    private static String message(String resource, @Nullable LockRecord holder, String detail) {
        StringBuilder message = new StringBuilder("Could not lock '").append(resource).append("'");
        if (!detail.isEmpty()) {
            message.append(" (").append(detail).append(")");
        }
        if (holder != null) {
            message.append(": held by ").append(OwnerFingerprint.of(holder.owner())).append(" until ")
                    .append(holder.expiresAt()).append(" (token ").append(holder.token()).append(")");
        }
        else {
            message.append(": held by another owner");
        }
        return message.toString();
    }
}

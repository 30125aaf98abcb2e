package io.distlock.jdbc;

import java.util.Locale;
import java.util.Objects;

/**
 * The lock table's name, checked to be a plain SQL identifier (optionally schema-qualified) before it is ever put
 * into a statement. The token sequence is named after it.
 *
 * @param value the table name, such as {@code distributed_locks} or {@code ops.job_locks}
 */
public record LockTableName(String value) {

    private static final String SEQUENCE_SUFFIX = "_token_seq";

    private static final String CHANNEL_SUFFIX = "_released";

    /** The table name the schema scripts use. */
    public static final LockTableName DEFAULT = new LockTableName("distributed_locks");

    /**
     * Checks the name, leaving room in the table part for the sequence's suffix.
     *
     * @param value the table name, optionally schema-qualified
     * @throws IllegalArgumentException when it is not a plain SQL identifier of at most 53 characters, optionally
     *     prefixed by a schema
     */
    public LockTableName {
        Objects.requireNonNull(value, "table name");
        SqlIdentifier.requireTableName("Lock table name", value, SqlIdentifier.MAX_LENGTH - SEQUENCE_SUFFIX.length());
    }

    /**
     * The sequence that issues fencing tokens: the table name followed by {@code _token_seq}.
     *
     * @return the sequence name
     */
    public String sequence() {
        return value + SEQUENCE_SUFFIX;
    }

    /**
     * The notification channel on which releases of this table's locks are told (PostgreSQL {@code LISTEN/NOTIFY}):
     * the table name in lower case, as PostgreSQL folds an unquoted name, with a schema's dot replaced by an
     * underscore, followed by {@code _released} — {@code distributed_locks_released} for the default table. A name
     * longer than PostgreSQL's 63 characters keeps its first 54 and ends with {@code _} and eight hex digits of the
     * whole name's hash. Only letters, digits and underscores, so it is safe in {@code LISTEN "…"} and in a string
     * literal.
     *
     * @return the channel name
     */
    public String notificationChannel() {
        String channel = value.toLowerCase(Locale.ROOT).replace('.', '_') + CHANNEL_SUFFIX;
        if (channel.length() <= SqlIdentifier.MAX_LENGTH) {
            return channel;
        }
        return channel.substring(0, SqlIdentifier.MAX_LENGTH - 9) + "_" + "%08x".formatted(channel.hashCode());
    }

    @Override
    public String toString() {
        return value;
    }
}

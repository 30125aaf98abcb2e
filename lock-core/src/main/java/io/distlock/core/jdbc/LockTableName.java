package io.distlock.core.jdbc;

import java.util.Objects;

/**
 * The lock table's name, checked to be a plain SQL identifier (optionally schema-qualified) before it is ever put
 * into a statement. The token sequence is named after it.
 *
 * @param value the table name, such as {@code distributed_locks} or {@code ops.job_locks}
 */
public record LockTableName(String value) {

    private static final String SEQUENCE_SUFFIX = "_token_seq";

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

    @Override
    public String toString() {
        return value;
    }
}

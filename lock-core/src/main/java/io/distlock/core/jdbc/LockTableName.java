package io.distlock.core.jdbc;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The lock table's name, checked to be a plain SQL identifier (optionally schema-qualified) before it is ever put
 * into a statement. The token sequence is named after it.
 *
 * @param value the table name, such as {@code distributed_locks} or {@code ops.job_locks}
 */
public record LockTableName(String value) {

    private static final Pattern IDENTIFIER = Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,52}");

    /** The table name the schema scripts use. */
    public static final LockTableName DEFAULT = new LockTableName("distributed_locks");

    public LockTableName {
        Objects.requireNonNull(value, "table name");
        if (!IDENTIFIER.matcher(value).matches()) {
            throw new IllegalArgumentException("Lock table name '" + value + "' is not a plain SQL identifier: use "
                    + "letters, digits and underscores, starting with a letter or underscore, optionally prefixed by "
                    + "'schema.', at most 53 characters for the table");
        }
    }

    /**
     * The sequence that issues fencing tokens: the table name followed by {@code _token_seq}.
     *
     * @return the sequence name
     */
    public String sequence() {
        return value + "_token_seq";
    }

    @Override
    public String toString() {
        return value;
    }
}

package io.distlock.jdbc;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The one check of every table name written into a statement text: a plain SQL identifier, optionally qualified by a
 * schema, so that no configured name can change what a statement means.
 */
final class SqlIdentifier {

    /** Longest identifier every supported database keeps as written (PostgreSQL truncates beyond it). */
    static final int MAX_LENGTH = 63;

    private static final Pattern QUALIFIED_NAME = Pattern.compile(
            "(?:([A-Za-z_][A-Za-z0-9_]*)\\.)?([A-Za-z_][A-Za-z0-9_]*)");

    private SqlIdentifier() {
    }

    /**
     * Checks a table name.
     *
     * @param description what the name is, for the message, such as {@code Lock table name}
     * @param name the name, optionally {@code schema.}-qualified
     * @param maxTableLength most characters of the table part, at most {@link #MAX_LENGTH}; less when other names
     *     are derived from it
     * @return the name
     * @throws IllegalArgumentException when the name is not a plain identifier of that length
     */
    static String requireTableName(String description, @Nullable String name, int maxTableLength) {
        Matcher matcher = name != null ? QUALIFIED_NAME.matcher(name) : null;
        if (matcher == null || !matcher.matches() || length(matcher.group(1)) > MAX_LENGTH
                || length(matcher.group(2)) > maxTableLength) {
            throw new IllegalArgumentException(description + " '" + name + "' is not a plain SQL identifier: use "
                    + "letters, digits and underscores, starting with a letter or underscore, optionally prefixed by "
                    + "'schema.', at most " + maxTableLength + " characters for the table");
        }
        return name;
    }

    private static int length(@Nullable String part) {
        return part != null ? part.length() : 0;
    }
}

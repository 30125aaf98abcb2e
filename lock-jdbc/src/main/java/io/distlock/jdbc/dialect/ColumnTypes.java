package io.distlock.jdbc.dialect;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading column type descriptions for the dialects' schema checks.
 */
final class ColumnTypes {

    /** The precision a timestamp type without one has in every supported database. */
    private static final int DEFAULT_PRECISION = 6;

    private ColumnTypes() {
    }

    /**
     * The fractional-second precision of a timestamp type.
     *
     * @param found the type's description
     * @param type the timestamp type, with the precision as an optional first group
     * @return the precision, or -1 when the description is not of that type
     */
    static int precision(String found, Pattern type) {
        Matcher matcher = type.matcher(found);
        if (!matcher.matches()) {
            return -1;
        }
        return matcher.groupCount() >= 1 && matcher.group(1) != null ? Integer.parseInt(matcher.group(1))
                : DEFAULT_PRECISION;
    }
}

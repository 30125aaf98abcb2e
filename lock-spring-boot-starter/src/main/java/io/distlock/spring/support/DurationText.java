package io.distlock.spring.support;

import java.time.Duration;
import java.util.regex.Pattern;

import org.springframework.boot.convert.DurationStyle;

/**
 * Durations written as text in annotation attributes ({@code ttl = "PT30S"}) and {@code distributed-lock.*}
 * properties: ISO-8601 ({@code PT30S}) or a number with a unit ({@code 30s}, {@code 500ms}). A number without a unit
 * is refused, never read as milliseconds, so that {@code ttl = "30"} cannot become a 30 ms lease. Public only so that
 * every package of the starter applies the same rule.
 */
public final class DurationText {

    /** The accepted forms, as messages name them. */
    public static final String FORMS = "ISO-8601 such as PT30S, or a number with a unit such as 30s or 500ms "
            + "(ns, us, ms, s, m, h, d)";

    private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?\\d+");

    private DurationText() {
    }

    /**
     * Parses a duration.
     *
     * @param text the duration, surrounding blanks ignored
     * @return the duration
     * @throws IllegalArgumentException when the text is not a duration, or is a number without a unit; the message
     *     is a phrase to append to what was declared, such as {@code has no unit: …}
     */
    public static Duration parse(String text) {
        String value = text.strip();
        if (lacksUnit(value)) {
            throw new IllegalArgumentException("has no unit: a number alone is not read as milliseconds; use " + FORMS);
        }
        try {
            return DurationStyle.detectAndParse(value);
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("is not a duration: use " + FORMS, ex);
        }
    }

    /**
     * Whether a value is a number without a unit, which would otherwise be read as milliseconds. Zero is unambiguous
     * and accepted.
     *
     * @param text the value, surrounding blanks ignored
     * @return {@code true} for {@code 30} or {@code -5}, {@code false} for {@code 0}, {@code 30s} or {@code PT30S}
     */
    public static boolean lacksUnit(String text) {
        String value = text.strip();
        return BARE_NUMBER.matcher(value).matches() && !value.replaceFirst("^[+-]", "").matches("0+");
    }
}

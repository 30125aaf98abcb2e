package io.distlock.spring.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * The one reader of the text attributes of a declaration ({@code @DistributedLock}, {@code @OncePerSlot},
 * {@code @EnableDistributedLocks}): placeholders resolved, durations parsed ({@link DurationText}) and bounded, and
 * every problem of the declaration collected, each told the same way —
 * {@code <where>attribute '<name>' = '<declared>' [(resolved '<value>') ]<problem>} — and thrown together
 * ({@link #throwIfAny()}), so that one start names every mistake at once.
 */
public final class DeclaredAttributes {

    private final String where;

    private final @Nullable UnaryOperator<String> placeholders;

    private final List<String> problems = new ArrayList<>();

    /**
     * Reads the attributes of one declaration.
     *
     * @param where what every message starts with, separator included: {@code "@DistributedLock on Jobs.run(): "}
     * @param placeholders resolves the placeholders of a text, throwing {@link IllegalArgumentException} for one it
     *     cannot resolve or leaving it in the text; {@code null} when placeholders cannot be resolved at all
     */
    public DeclaredAttributes(String where, @Nullable UnaryOperator<String> placeholders) {
        this.where = where;
        this.placeholders = placeholders;
    }

    /**
     * Reads the attributes of an annotation on a method.
     *
     * @param annotation the annotation, such as {@code @OncePerSlot}
     * @param method the method, named for people
     * @param placeholders resolves placeholders, or {@code null}
     * @return the reader
     */
    public static DeclaredAttributes onMethod(String annotation, String method,
            @Nullable UnaryOperator<String> placeholders) {
        return new DeclaredAttributes(annotation + " on " + method + ": ", placeholders);
    }

    /**
     * An attribute's text with its placeholders resolved.
     *
     * @param attribute the attribute's name
     * @param declared the attribute as declared
     * @return the text; {@code null} after recording why it cannot be resolved
     */
    public @Nullable String text(String attribute, String declared) {
        if (!declared.contains("${")) {
            return declared;
        }
        if (placeholders == null) {
            add(attribute, declared, "has a placeholder, but the bean factory cannot resolve placeholders");
            return null;
        }
        try {
            String resolved = placeholders.apply(declared);
            if (resolved == null || resolved.contains("${")) {
                add(attribute, declared, "has a placeholder that cannot be resolved");
                return null;
            }
            return resolved;
        }
        catch (IllegalArgumentException ex) {
            add(attribute, declared, "has a placeholder that cannot be resolved: " + ex.getMessage());
            return null;
        }
    }

    /**
     * An attribute's duration: ISO-8601 or a number with a unit, after its placeholders are resolved.
     *
     * @param attribute the attribute's name
     * @param declared the attribute as declared
     * @param fallback the duration of a blank attribute
     * @return the duration; {@code null} after recording the problem
     */
    public @Nullable Duration duration(String attribute, String declared, Duration fallback) {
        String text = text(attribute, declared);
        if (text == null) {
            return null;
        }
        if (text.isBlank()) {
            return fallback;
        }
        try {
            return DurationText.parse(text);
        }
        catch (IllegalArgumentException ex) {
            add(attribute, declared, (text.equals(declared) ? "" : "(resolved '" + text.strip() + "') ")
                    + ex.getMessage());
            return null;
        }
    }

    /**
     * Checks a duration read by {@link #duration} against its bounds.
     *
     * @param attribute the attribute's name
     * @param declared the attribute as declared, blank for the default
     * @param value the duration read, or {@code null} when it could not be
     * @param min the smallest allowed
     * @param max the largest allowed
     * @param maxName what sets the largest, for the message (a property, or a phrase), or {@code null}
     * @return the value when within its bounds; {@code null} after recording the problem
     */
    public @Nullable Duration within(String attribute, String declared, @Nullable Duration value, Duration min,
            Duration max, @Nullable String maxName) {
        if (value == null) {
            return null;
        }
        String shown = declared.isBlank() ? "(default " + value + ")" : declared;
        if (value.compareTo(min) < 0) {
            add(attribute, shown, "must be at least " + min);
            return null;
        }
        if (value.compareTo(max) > 0) {
            add(attribute, shown, "must be at most " + max + (maxName != null ? " (" + maxName + ")" : ""));
            return null;
        }
        return value;
    }

    /**
     * Checks that a duration read by {@link #duration} has no fraction of a millisecond, for an attribute the store
     * keeps in milliseconds.
     *
     * @param attribute the attribute's name
     * @param declared the attribute as declared, blank for the default
     * @param value the duration read, or {@code null} when it could not be
     * @return the value when whole; {@code null} after recording the problem
     */
    public @Nullable Duration wholeMillis(String attribute, String declared, @Nullable Duration value) {
        if (value != null && value.getNano() % 1_000_000 != 0) {
            add(attribute, declared.isBlank() ? "(default " + value + ")" : declared,
                    "must be a whole number of milliseconds");
            return null;
        }
        return value;
    }

    /**
     * Records a problem of one attribute.
     *
     * @param attribute the attribute's name
     * @param value the attribute as declared (or as shown)
     * @param problem what is wrong, a phrase
     */
    public void add(String attribute, String value, String problem) {
        problems.add(where + "attribute '" + attribute + "' = '" + value + "' " + problem);
    }

    /**
     * Records a problem of the declaration as a whole.
     *
     * @param problem what is wrong
     */
    public void add(String problem) {
        problems.add(where + problem);
    }

    /** @return the problems recorded so far, in order */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * Throws every problem recorded, if any.
     *
     * @throws InvalidLockDeclarationException listing them
     */
    public void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new InvalidLockDeclarationException(List.copyOf(problems));
        }
    }
}

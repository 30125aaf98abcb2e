package io.distlock.core;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Owner tokens of the form {@code host:pid:random}: a readable prefix saying which process holds a lock, then 128
 * random bits from {@link SecureRandom} so that nobody can guess the token and release someone else's lock.
 */
public final class RandomOwnerGenerator implements OwnerGenerator {

    private static final int RANDOM_BYTES = 16;

    private static final int MAX_PREFIX_LENGTH = 200;

    private final SecureRandom random = new SecureRandom();

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
        random.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
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

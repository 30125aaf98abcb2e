package io.distlock.redis;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.dao.PermissionDeniedDataAccessException;

/**
 * Turns the answers of a Redis that cannot serve as the lock store into messages that say what to do.
 */
final class RedisFailures {

    private static final String KEY_TYPE = "DISTLOCK_KEY_TYPE ";

    private static final String VERSION = "DISTLOCK_VERSION ";

    private RedisFailures() {
    }

    /**
     * The failure of a lock script, with a clear message when a key of the layout has another type.
     */
    static DataAccessException ofScript(DataAccessException ex, RedisLockKeys keys) {
        String keyType = find(ex, KEY_TYPE);
        if (keyType != null) {
            return new InvalidDataAccessResourceUsageException(keyTypeMessage(keyType, keys), ex);
        }
        String noPermission = find(ex, "NOPERM");
        if (noPermission != null) {
            return new PermissionDeniedDataAccessException(scriptPermissionMessage(noPermission), ex);
        }
        return ex;
    }

    /**
     * Why the server did not answer a {@code PING}.
     */
    static RedisLockStoreException ofPing(DataAccessException ex) {
        String all = messages(ex);
        String upper = all.toUpperCase(Locale.ROOT);
        if (upper.contains("WRONGPASS") || upper.contains("NOAUTH") || upper.contains("AUTH")
                && (upper.contains("PASSWORD") || upper.contains("CREDENTIALS"))) {
            return new RedisLockStoreException("Redis refused the credentials of the lock store's connection ("
                    + all + "): check the user name and password (spring.data.redis.username, "
                    + "spring.data.redis.password)", ex);
        }
        return new RedisLockStoreException("Redis does not answer the lock store (" + all
                + "): check that it runs and that host, port and TLS settings (spring.data.redis.*) point to it", ex);
    }

    /**
     * Why the probe script did not run.
     */
    static RedisLockStoreException ofProbe(DataAccessException ex, RedisLockKeys keys) {
        String keyType = find(ex, KEY_TYPE);
        if (keyType != null) {
            return new RedisLockStoreException(keyTypeMessage(keyType, keys), ex);
        }
        String version = find(ex, VERSION);
        if (version != null) {
            return new RedisLockStoreException(version, ex);
        }
        String all = messages(ex);
        String upper = all.toUpperCase(Locale.ROOT);
        if (upper.contains("NOPERM")) {
            return new RedisLockStoreException(scriptPermissionMessage(all), ex);
        }
        if (upper.contains("UNKNOWN COMMAND") || upper.contains("NOSCRIPT") || upper.contains("DISABLED")) {
            return new RedisLockStoreException("This Redis server does not run Lua scripts (" + all
                    + "): the lock store decides every acquire, renewal and release in a script, so EVAL and "
                    + "EVALSHA must be available (not renamed or disabled)", ex);
        }
        return new RedisLockStoreException("Redis could not run the lock store's scripts (" + all + ")", ex);
    }

    private static String scriptPermissionMessage(String serverText) {
        return "The Redis user of the lock store may not run scripts or the commands they call (" + serverText
                + "): grant it EVAL, EVALSHA and the commands of the lock scripts, for example "
                + "ACL SETUSER <user> +@scripting +@read +@write +@keyspace +time +ping";
    }

    private static String keyTypeMessage(String serverText, RedisLockKeys keys) {
        return "Redis key " + serverText.substring(KEY_TYPE.length()) + " as the lock layout expects: another "
                + "application writes keys under the prefix '" + keys.prefix() + "'; give the lock repository a "
                + "prefix of its own (RedisLockRepository.Builder#keyPrefix, distributed-lock.redis.key-prefix)";
    }

    /** The text from {@code marker} on, in the first message of the cause chain that carries it. */
    private static @Nullable String find(Throwable ex, String marker) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            String message = t.getMessage();
            int at = message != null ? message.indexOf(marker) : -1;
            if (at >= 0) {
                return message.substring(at).strip();
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /** The distinct messages of the cause chain, outermost first. */
    private static String messages(Throwable ex) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = ex; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && !message.isBlank() && all.indexOf(message) < 0) {
                if (!all.isEmpty()) {
                    all.append(": ");
                }
                all.append(message.strip());
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return all.isEmpty() ? ex.getClass().getName() : all.toString();
    }
}

package io.distlock.jdbc;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What the lock table's server says about its replication, as the lock statements' sessions see it, for the start-up
 * line and the health details: whether it is a standby, which standbys it names synchronous, how the lock
 * statements' commits wait, and the standbys streaming from it now.
 *
 * @param mode the repository's setting ({@link JdbcLockRepository.Builder#replication})
 * @param database the database's name, such as {@code PostgreSQL}
 * @param readable whether the database told its replication; {@code false} for databases the repository cannot ask
 *     (H2, MariaDB), and then every other field but {@code mode} and {@code database} is empty
 * @param inRecovery whether the server is a standby ({@code pg_is_in_recovery()})
 * @param synchronousStandbyNames the server's {@code synchronous_standby_names}, empty for none
 * @param synchronousCommit the lock statements' {@code synchronous_commit}
 * @param standbys the standbys streaming from the server, each as {@code name (state, sync_state)}, empty for none
 * @param synchronousStandbys how many of them are synchronous ({@code sync_state} {@code sync} or {@code quorum})
 */
public record ReplicationStatus(JdbcReplication mode, String database, boolean readable, boolean inRecovery,
        String synchronousStandbyNames, String synchronousCommit, String standbys, int synchronousStandbys) {

    /** The {@code synchronous_commit} levels whose commits wait for a synchronous standby, when one is named. */
    private static final Set<String> WAITING_LEVELS = Set.of("on", "remote_apply", "remote_write");

    static ReplicationStatus unreadable(JdbcReplication mode, String database) {
        return new ReplicationStatus(mode, database, false, false, "", "", "", 0);
    }

    /**
     * @return whether the lock statements' commits wait for a synchronous standby: the server names one and their
     *     {@code synchronous_commit} waits
     */
    public boolean acquisitionsWaitForStandby() {
        return readable && !synchronousStandbyNames.isBlank() && WAITING_LEVELS.contains(synchronousCommit);
    }

    /**
     * @return the one line that says which mode the deployment is in: "no standby", the synchronous standbys, or the
     *     asynchronous standbys and what a failover can then do
     */
    public String summary() {
        String setting = "replication=" + label(mode);
        if (!readable) {
            return setting + " on " + database + ": the lock statements' commits do not wait for replicas, and "
                    + database + " is not asked whether it has any";
        }
        if (inRecovery) {
            return setting + " on " + database + ": the server is a standby (pg_is_in_recovery()), lock statements "
                    + "cannot write on it";
        }
        String waits = "synchronous_commit=" + synchronousCommit + ", synchronous_standby_names='"
                + synchronousStandbyNames + "'";
        if (acquisitionsWaitForStandby()) {
            return setting + " on " + database + " (" + waits + "): acquisitions and renewals wait for a synchronous "
                    + "standby; standbys now: " + (standbys.isEmpty() ? "none connected, so acquisitions end as not "
                    + "acquired at the statement timeout" : standbys);
        }
        if (standbys.isEmpty()) {
            return setting + " on " + database + " (" + waits + "): no standby";
        }
        return setting + " on " + database + " (" + waits + "): asynchronous standby(s) " + standbys + ": a failover "
                + "can lose acquisitions and give a lock two owners; set replication=synchronous with synchronous "
                + "standbys named on the server (see docs/guarantees.md, Failover)";
    }

    /**
     * @return whether {@link #summary()} is a warning: asynchronous standbys, or synchronous replication without a
     *     standby connected
     */
    public boolean isWarning() {
        if (!readable || inRecovery) {
            return false;
        }
        return acquisitionsWaitForStandby() ? synchronousStandbys == 0 : !standbys.isEmpty();
    }

    /**
     * @return the health details: the mode, and what the server said
     */
    public Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("mode", label(mode));
        details.put("database", database);
        if (readable) {
            details.put("standby", inRecovery);
            details.put("acquisitionsWaitForStandby", acquisitionsWaitForStandby());
            details.put("synchronousCommit", synchronousCommit);
            details.put("synchronousStandbyNames", synchronousStandbyNames);
            details.put("standbys", standbys);
            details.put("synchronousStandbys", synchronousStandbys);
        }
        return details;
    }

    /**
     * Why the repository's settings cannot be honoured on this server.
     *
     * @param requireStandby whether acquisitions must wait for a synchronous standby whatever the mode
     * @return the reason, naming the setting and the database, or {@code null} when they can
     */
    @Nullable String problem(boolean requireStandby) {
        if (mode == JdbcReplication.ASYNC && !requireStandby) {
            return null;
        }
        String setting = mode == JdbcReplication.ASYNC
                ? "require-synchronous-standby (distributed-lock.jdbc.require-synchronous-standby)"
                : "replication=" + label(mode)
                        + " (distributed-lock.jdbc.replication)";
        if (!readable) {
            return setting + " cannot be honoured on " + database + ": only PostgreSQL lets the lock statements' "
                    + "commits wait for a standby";
        }
        if (synchronousStandbyNames.isBlank()) {
            return setting + " cannot be honoured on " + database + ": the server's synchronous_standby_names is "
                    + "empty, so commits wait for no standby; name the synchronous standbys on the server (for "
                    + "example synchronous_standby_names = 'ANY 1 (*)')";
        }
        if (!acquisitionsWaitForStandby()) {
            return setting + " is not met on " + database + ": the lock statements commit with synchronous_commit="
                    + synchronousCommit + ", which waits for no standby; set replication=synchronous";
        }
        return null;
    }

    /** The mode as the property spells it: {@code async}, {@code synchronous}, {@code remote-apply}. */
    private static String label(JdbcReplication mode) {
        return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

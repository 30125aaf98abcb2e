package io.distlock.benchmarks;

import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import io.distlock.testsupport.TestDatabase;

/**
 * The implementations compared, by the ids used in parameters, {@code RATIO} and {@code STATEMENTS} lines.
 */
public enum LockImplementation {

    /** distlock's {@code LockManager}. */
    DISTLOCK("distlock"),

    /** ShedLock's {@code JdbcTemplateLockProvider}. */
    SHEDLOCK("shedlock"),

    /** Spring Integration's {@code JdbcLockRegistry}. */
    JDBC_LOCK_REGISTRY("jdbclockregistry"),

    /** Two plain single-row updates. */
    FLOOR("floor"),

    /** PostgreSQL session advisory locks. */
    PG_ADVISORY("pg-advisory");

    private final String id;

    LockImplementation(String id) {
        this.id = id;
    }

    /**
     * Looks an implementation up by its id.
     *
     * @param id the id, such as {@code shedlock}
     * @return the implementation
     */
    public static LockImplementation byId(String id) {
        return Arrays.stream(values()).filter(impl -> impl.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown implementation '" + id + "'"));
    }

    /**
     * The implementations that run on a database.
     *
     * @param db the database
     * @return their ids, distlock first
     */
    public static List<String> idsFor(TestDatabase db) {
        return Arrays.stream(values()).filter(impl -> impl.runsOn(db)).map(LockImplementation::id).toList();
    }

    /** @return the id */
    public String id() {
        return id;
    }

    /**
     * Whether this implementation runs on a database.
     *
     * @param db the database
     * @return {@code false} only for advisory locks off PostgreSQL
     */
    public boolean runsOn(TestDatabase db) {
        return this != PG_ADVISORY || db == TestDatabase.POSTGRESQL;
    }

    /**
     * Opens one node's client.
     *
     * @param db the database
     * @param dataSource the shared pool (or its statement-counting wrapper)
     * @param node the node's name, unique per benchmark thread
     * @return the client
     */
    public LockClient open(TestDatabase db, DataSource dataSource, String node) {
        return switch (this) {
            case DISTLOCK -> new DistlockClient(db, dataSource);
            case SHEDLOCK -> new ShedLockClient(dataSource, node);
            case JDBC_LOCK_REGISTRY -> new JdbcLockRegistryClient(dataSource);
            case FLOOR -> new FloorClient(db, dataSource, node);
            case PG_ADVISORY -> new AdvisoryLockClient(dataSource);
        };
    }
}

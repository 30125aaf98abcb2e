package io.distlock.jdbc.dialect;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The schema of the lock and fencing tables in one database, as a dialect knows it: where its scripts lie and which
 * Spring Boot platform they are written for, and the queries and judgements of the start-up check (the token
 * sequence, the columns' types). Part of a {@link LockDialect}.
 */
public interface DialectSchema {

    /**
     * Where the DDL script for this database lies on the class path. The script names the table
     * {@code distributed_locks} and its token sequence {@code distributed_locks_token_seq}.
     *
     * @return a class path location
     */
    String schemaLocation();

    /**
     * The Spring Boot platform this database's schema scripts are written for: what replaces {@code @@platform@@} in
     * a schema location such as {@code schema-@@platform@@.sql}.
     *
     * @return a platform id such as {@code postgresql}: each built-in dialect's name in {@link LockDialects}
     */
    String platform();

    /**
     * The platforms this database's scripts were named for by earlier versions, still accepted where a platform is
     * configured or a script named: MariaDB's scripts were {@code schema-mysql.sql} and its siblings.
     *
     * @return the former platform ids; none by default
     */
    default List<String> formerPlatforms() {
        return List.of();
    }

    /**
     * Where the DDL script of the fencing table for this database lies on the class path. The script names the table
     * {@code fencing_tokens}, with the columns {@code name} (the protected resource, primary key) and
     * {@code last_token}.
     *
     * @return a class path location
     */
    String fencingSchemaLocation();

    /**
     * A query that fails when the token sequence is missing.
     *
     * @param sequence the sequence's name
     * @return the statement text
     */
    String checkSequence(String sequence);

    /**
     * A query describing the lock table's columns, so that the start-up check can refuse a table whose types break
     * the guarantees (a timestamp without its zone, a case-insensitive key, no unique key on {@code resource}).
     * Parameters: the schema, or {@code null} for the session's current one, and the table name, both as configured.
     * One row per column: its name, then a description of its type as {@link #expectedColumnType} judges it.
     *
     * @return the query; {@code null} (the default) to check no types
     */
    default @Nullable String columnTypesQuery() {
        return null;
    }

    /**
     * Judges a lock table column's type, as {@link #columnTypesQuery()} describes it.
     *
     * @param column the column's name, in lower case
     * @param found the type's description
     * @return {@code null} when the type keeps the guarantees; otherwise the type expected, for the message
     */
    default @Nullable String expectedColumnType(String column, String found) {
        return null;
    }
}

package io.distlock.jdbc;

/**
 * The lock repository contract on a lock table that a migration tool created with the library's migration, as an
 * application whose schema Flyway or Liquibase owns would have it.
 */
abstract class MigratedLockRepositoryContractTests extends JdbcLockRepositoryContractTests {

    /**
     * Creates the lock table and the fencing table with the tool.
     *
     * @param table the lock table's name
     * @param fencingTable the fencing table's name
     * @throws Exception when the tool fails
     */
    protected abstract void migrate(LockTableName table, String fencingTable) throws Exception;

    @Override
    protected LockTableName createLockTable() {
        database().assumeAvailable();
        LockTableName table = SchemaMigrations.freshTable();
        try {
            migrate(table, fencingTable(table));
        }
        catch (Exception ex) {
            throw new IllegalStateException("The migration could not create " + table, ex);
        }
        return table;
    }

    @Override
    protected void dropLockTable(LockTableName table) {
        SchemaMigrations.drop(database(), table, fencingTable(table));
    }

    private static String fencingTable(LockTableName table) {
        return table.value() + "_fencing";
    }
}

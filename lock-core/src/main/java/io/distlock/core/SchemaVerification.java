package io.distlock.core;

/**
 * A store whose schema can be checked before it is used (the lock table and its columns, the layout of the keys),
 * so that a start on a store that cannot keep locks fails at once, saying what to do.
 */
public interface SchemaVerification {

    /**
     * Checks that the store's schema exists as the store needs it, failing fast with a message that says how to
     * create it.
     */
    void verifySchema();

    /**
     * Checks a store's schema, when it can be checked.
     *
     * @param repository the store
     */
    static void verify(LockRepository repository) {
        repository.capability(SchemaVerification.class).ifPresent(SchemaVerification::verifySchema);
    }
}

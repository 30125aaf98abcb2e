package io.distlock.jdbc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The one table name check of the lock table and the fencing table.
 */
class SqlIdentifierTests {

    @Test
    void plainAndSchemaQualifiedNamesPass() {
        for (String name : new String[] {"distributed_locks", "_locks", "Locks2", "ops.job_locks", "_s._t"}) {
            assertThat(SqlIdentifier.requireTableName("Table name", name, 63)).isEqualTo(name);
        }
    }

    @Test
    void anythingElseIsRejectedNamingTheValue() {
        for (String name : new String[] {"", "2locks", "a-b", "x; DROP", "a.b.c", ".locks", "locks.", "\"locks\"",
                "lo cks", "ops..locks"}) {
            assertThatIllegalArgumentException().isThrownBy(() -> SqlIdentifier.requireTableName("Table name", name, 63))
                    .withMessage("Table name '" + name + "' is not a plain SQL identifier: use letters, digits and "
                            + "underscores, starting with a letter or underscore, optionally prefixed by 'schema.', "
                            + "at most 63 characters for the table");
        }
        assertThatIllegalArgumentException().isThrownBy(() -> SqlIdentifier.requireTableName("Table name", null, 63))
                .withMessageContaining("'null'");
    }

    @Test
    void theTableAndTheSchemaHaveTheirOwnLengthLimits() {
        String table53 = "t".repeat(53);
        String schema63 = "s".repeat(63);
        assertThat(SqlIdentifier.requireTableName("Table name", schema63 + "." + table53, 53)).endsWith(table53);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> SqlIdentifier.requireTableName("Table name", table53 + "t", 53))
                .withMessageEndingWith("at most 53 characters for the table");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> SqlIdentifier.requireTableName("Table name", schema63 + "s.t", 53));
    }

    @Test
    void theLockTableLeavesRoomForItsSequenceAndTheFencingTableDoesNotNeedTo() {
        assertThat(new LockTableName("l".repeat(53)).sequence()).hasSize(63);
        assertThatIllegalArgumentException().isThrownBy(() -> new LockTableName("l".repeat(54)))
                .withMessageStartingWith("Lock table name '");
        assertThat(FencingGuard.requireTableName("f".repeat(63))).hasSize(63);
        assertThatIllegalArgumentException().isThrownBy(() -> FencingGuard.requireTableName("f".repeat(64)))
                .withMessageStartingWith("Fencing table name '");
    }
}

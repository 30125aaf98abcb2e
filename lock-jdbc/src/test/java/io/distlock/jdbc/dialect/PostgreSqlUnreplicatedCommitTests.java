package io.distlock.jdbc.dialect;

import java.sql.SQLWarning;

import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLWarning;
import org.postgresql.util.ServerErrorMessage;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the PostgreSQL dialect tells a commit whose wait for the synchronous standby was cancelled: by the server's
 * routine, whatever language the server speaks, or by the English text when the driver gives no routine.
 */
class PostgreSqlUnreplicatedCommitTests {

    private final LockDialect dialect = LockDialects.byName("postgresql");

    @Test
    void theCancelledWaitForSynchronousReplicationIsAnUnreplicatedCommit() {
        assertThat(dialect.isUnreplicatedCommit(warning("canceling wait for synchronous replication due to user "
                + "request", "SyncRepWaitForLSN"))).isTrue();
    }

    @Test
    void aTranslatedMessageIsKnownByTheServersRoutine() {
        assertThat(dialect.isUnreplicatedCommit(warning("breche Warten auf synchrone Replikation ab wegen "
                + "Benutzeraufforderung", "SyncRepWaitForLSN"))).isTrue();
    }

    @Test
    void anotherWarningIsNot() {
        assertThat(dialect.isUnreplicatedCommit(warning("there is no transaction in progress", "UserAbortTransaction")))
                .isFalse();
        assertThat(dialect.isUnreplicatedCommit(new SQLWarning("nonstandard use of \\\\ in a string literal")))
                .isFalse();
    }

    @Test
    void withoutARoutineTheEnglishTextTells() {
        assertThat(dialect.isUnreplicatedCommit(new SQLWarning("canceling wait for synchronous replication due to "
                + "user request", "01000"))).isTrue();
    }

    @Test
    void otherDatabasesHaveNone() {
        assertThat(LockDialects.byName("h2").isUnreplicatedCommit(new SQLWarning("canceling wait for synchronous "
                + "replication due to user request"))).isFalse();
        assertThat(LockDialects.byName("h2").replicationQuery()).isNull();
        assertThat(LockDialects.byName("mariadb").synchronousCommitQuery()).isNull();
    }

    private static PSQLWarning warning(String message, String routine) {
        return new PSQLWarning(new ServerErrorMessage("SWARNING\0C01000\0M" + message + "\0R" + routine + "\0"));
    }
}

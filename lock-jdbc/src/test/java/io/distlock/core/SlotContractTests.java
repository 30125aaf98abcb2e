package io.distlock.core;

import java.time.Duration;
import java.util.UUID;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.SlotStoreContract;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The slot contract on a lock table, plus what only a lock table does: clean-up keeps the rows of scheduled jobs, and
 * a table made by 0.1 fails naming its upgrade script, which fixes it.
 */
abstract class SlotContractTests extends SlotStoreContract {

    private LockTableName table;

    private JdbcLockRepository repository;

    protected abstract TestDatabase database();

    @BeforeAll
    void createTable() {
        table = database().createLockTable();
        repository = JdbcLockRepository.builder(database().dataSource()).tableName(table.value())
                .dialect(database().dialect()).build();
    }

    @AfterAll
    void dropTable() {
        if (table != null) {
            database().dropLockTable(table);
        }
    }

    @Override
    protected LockRepository repository() {
        return repository;
    }

    @Test
    void cleanUpKeepsTheRowsOfScheduledJobs() {
        String job = job();
        run(replica(), SlotRequest.of(job, T0, TTL));
        String plain = "plain:" + UUID.randomUUID();
        replica().tryAcquire(plain, Duration.ofMinutes(1)).orElseThrow();
        database().execute("UPDATE " + table + " SET acquired_at = TIMESTAMP '2020-01-01 00:00:00', expires_at = "
                + "TIMESTAMP '2020-01-01 00:00:00' WHERE resource IN ('" + job + "', '" + plain + "')");
        assertThat(repository.deleteExpired(JdbcLockRepository.MIN_RETENTION)).isOne();
        assertThat(count("SELECT COUNT(*) FROM " + table + " WHERE resource = '" + plain + "'")).isZero();
        assertThat(count("SELECT COUNT(*) FROM " + table + " WHERE resource = '" + job + "'")).isOne();
        assertThat(run(replica(), SlotRequest.of(job, T0, TTL)).status()).isEqualTo(SlotOutcome.Status.ALREADY_CLAIMED);
    }

    @Test
    void aLockTableWithoutTheSlotColumnsFailsNamingTheUpgradeScriptAndTheScriptFixesIt() {
        LockTableName old = new LockTableName("dl_old_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
        String script = io.distlock.jdbc.LockSchema.script(database().dialect(), old);
        String withoutSlots = script.substring(0, script.indexOf("-- Scheduled slots")).replaceAll(
                ",\\s*slot_at\\s+BIGINT,\\s*slot_token\\s+BIGINT,\\s*slot_state\\s+CHAR\\(1\\),\\s*slot_runs\\s+INT NOT NULL DEFAULT 0", "");
        database().executeScript(withoutSlots);
        try {
            JdbcLockRepository oldRepository = JdbcLockRepository.builder(database().dataSource())
                    .tableName(old.value()).dialect(database().dialect()).build();
            LockManager replica = LockManager.builder(oldRepository).build();
            assertThatIllegalStateException().isThrownBy(() -> run(replica, SlotRequest.of(job(), T0, TTL)))
                    .withMessageContaining("upgrade-slots-")
                    .withMessageContaining(", then io/distlock/jdbc/dialect/schema-");
            database().executeScript(io.distlock.jdbc.LockSchema.upgradeSlotsScript(database().dialect(), old));
            assertThat(run(replica, SlotRequest.of(job(), T0, TTL)).status()).isEqualTo(SlotOutcome.Status.RAN);
            replica.close();
        }
        finally {
            database().dropLockTable(old);
        }
    }

    private int count(String sql) {
        Integer count = new org.springframework.jdbc.core.JdbcTemplate(database().dataSource())
                .queryForObject(sql, Integer.class);
        return count == null ? 0 : count;
    }
}

package io.distlock.jdbc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The names derived from the lock table's name.
 */
class LockTableNameTests {

    @Test
    void theNotificationChannelIsTheTableNameInLowerCaseWithTheSchemaDotAsAnUnderscore() {
        assertThat(LockTableName.DEFAULT.notificationChannel()).isEqualTo("distributed_locks_released");
        assertThat(new LockTableName("Ops.Job_Locks").notificationChannel()).isEqualTo("ops_job_locks_released");
    }

    @Test
    void aChannelLongerThanPostgreSqlAllowsIsCutAndEndsWithAHashOfTheWholeName() {
        String schema = "s".repeat(40);
        String channel = new LockTableName(schema + ".locks_of_the_reporting_jobs").notificationChannel();
        String other = new LockTableName(schema + ".locks_of_the_reporting_tasks").notificationChannel();
        assertThat(channel).hasSize(63).startsWith(schema + "_locks_of_").matches("[a-z0-9_]+");
        assertThat(other).hasSize(63).isNotEqualTo(channel);
    }
}

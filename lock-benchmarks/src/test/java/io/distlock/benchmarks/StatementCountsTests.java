package io.distlock.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.testsupport.CountingDataSource;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the contended error count counts: a statement the database refuses is an error even when the caller handles
 * it, and a statement it runs is not; on in-memory H2, so that nothing depends on timing.
 */
class StatementCountsTests {

    @Test
    void aStatementTheDatabaseRefusesCountsAsAnErrorAndStillReachesTheCaller() {
        try (HikariDataSource pool = TestDatabase.H2.openPool("errors-test", 1)) {
            CountingDataSource counting = new CountingDataSource(pool);
            JdbcTemplate jdbc = new JdbcTemplate(counting);
            jdbc.execute("CREATE TABLE bench_counted_errors (id INT PRIMARY KEY)");
            try {
                jdbc.update("INSERT INTO bench_counted_errors VALUES (1)");
                counting.reset();

                assertThatExceptionOfType(DuplicateKeyException.class)
                        .isThrownBy(() -> jdbc.update("INSERT INTO bench_counted_errors VALUES (1)"));
                jdbc.update("INSERT INTO bench_counted_errors VALUES (2)");

                assertThat(counting.statements()).isEqualTo(2);
                assertThat(counting.errors()).isEqualTo(1);
            }
            finally {
                jdbc.execute("DROP TABLE bench_counted_errors");
            }
        }
    }

    @Test
    void theFloorsContendedCycleRaisesNoErrors() throws InterruptedException {
        StatementCounts.Errors counted = StatementCounts.contended(TestDatabase.H2, LockImplementation.FLOOR);

        assertThat(counted.attempts()).isEqualTo(StatementCounts.CONTENDED_THREADS * StatementCounts.CONTENDED_ATTEMPTS);
        assertThat(counted.errors()).isZero();
    }
}

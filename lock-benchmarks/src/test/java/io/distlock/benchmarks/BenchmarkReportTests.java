package io.distlock.benchmarks;

import java.util.List;

import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The goals table: every goal is listed whether or not the run measured it, and the error count is judged exactly.
 */
class BenchmarkReportTests {

    @Test
    void everyGoalIsListedOnEveryStoreEvenWhenNotMeasured() {
        List<BenchmarkReport.Goal> goals = new BenchmarkReport(BenchmarkPlan.QUICK, "test").goals();

        assertThat(goals).extracting(goal -> goal.goal() + " @ " + goal.where() + " " + goal.target()).containsExactly(
                "uncontended distlock/shedlock @ postgresql, 1 thread(s) ≥ 1.5",
                "uncontended distlock/jdbclockregistry @ postgresql, 1 thread(s) ≥ 1.5",
                "uncontended distlock/floor @ postgresql, 1 thread(s) ≥ 1.0",
                "uncontended distlock/shedlock @ postgresql, 4 thread(s) ≥ 1.5",
                "uncontended distlock/jdbclockregistry @ postgresql, 4 thread(s) ≥ 1.5",
                "uncontended distlock/floor @ postgresql, 4 thread(s) ≥ 1.0",
                "uncontended distlock/shedlock @ mariadb, 1 thread(s) ≥ 1.5",
                "uncontended distlock/jdbclockregistry @ mariadb, 1 thread(s) ≥ 1.5",
                "uncontended distlock/shedlock @ mariadb, 4 thread(s) ≥ 1.5",
                "uncontended distlock/jdbclockregistry @ mariadb, 4 thread(s) ≥ 1.5",
                "uncontended distlock/jdbclockregistry @ h2, 1 thread(s) ≥ 1.5",
                "uncontended distlock/floor @ h2, 1 thread(s) ≥ 0.9",
                "uncontended distlock/jdbclockregistry @ h2, 4 thread(s) ≥ 1.5",
                "uncontended distlock/floor @ h2, 4 thread(s) ≥ 0.9",
                "contended distlock/best peer @ postgresql, 4 threads, one resource ≥ 1.5",
                "contended server-side errors @ postgresql, 4 threads, one resource 0",
                "contended distlock/best peer @ mariadb, 4 threads, one resource ≥ 1.5",
                "contended server-side errors @ mariadb, 4 threads, one resource 0",
                "contended distlock/best peer @ h2, 4 threads, one resource ≥ 1.5",
                "contended server-side errors @ h2, 4 threads, one resource 0",
                "handover p50 @ postgresql, 4 waiters ≤ 5 ms",
                "handover p99 @ postgresql, 4 waiters ≤ 50 ms",
                "handover p50/Redisson p50 @ postgresql, 4 waiters ≤ 2",
                "handover p50 @ mariadb, 4 waiters ≤ 50 ms",
                "handover p50 @ h2, 4 waiters ≤ 50 ms",
                "watchdog statements per round (renewAll) @ postgresql, 10,000 leases ≤ 20",
                "watchdog statements per round (kept alive) @ postgresql, 10,000 leases ≤ 20",
                "heap of the held leases @ postgresql, 10,000 leases ≤ 20 MB",
                "watchdog statements per round (renewAll) @ mariadb, 10,000 leases ≤ 20",
                "watchdog statements per round (kept alive) @ mariadb, 10,000 leases ≤ 20",
                "heap of the held leases @ mariadb, 10,000 leases ≤ 20 MB",
                "watchdog statements per round (renewAll) @ h2, 10,000 leases ≤ 20",
                "watchdog statements per round (kept alive) @ h2, 10,000 leases ≤ 20",
                "heap of the held leases @ h2, 10,000 leases ≤ 20 MB",
                "aspect time/programmatic time @ postgresql, 1 thread(s) ≤ 1.03",
                "aspect time/programmatic time @ mariadb, 1 thread(s) ≤ 1.03",
                "aspect time/programmatic time @ h2, 1 thread(s) ≤ 1.03",
                "uncontended distlock/redisson @ redis, 1 thread(s) ≥ 1.0",
                "uncontended distlock/redisson @ redis, 4 thread(s) ≥ 1.0",
                "handover p50/Redisson p50 @ redis, 4 waiters ≤ 2");
        assertThat(goals).extracting(BenchmarkReport.Goal::status).containsOnly(BenchmarkReport.Status.NOT_MEASURED);
    }

    @Test
    void oneServerSideErrorMissesTheContendedGoalAndNamesEveryImplementationsCount() {
        BenchmarkReport report = new BenchmarkReport(BenchmarkPlan.FULL, "test");
        report.serverVersion(TestDatabase.MARIADB, "MariaDB");
        report.add(new StatementCounts.Errors("distlock", "mariadb", 4, 1_000, 1));
        report.add(new StatementCounts.Errors("shedlock", "mariadb", 4, 1_000, 7));

        BenchmarkReport.Goal goal = errorsGoal(report, "mariadb");

        assertThat(goal.status()).isEqualTo(BenchmarkReport.Status.MISSED);
        assertThat(goal.close()).isFalse();
        assertThat(goal.reason()).contains("distlock 1, shedlock 7").doesNotContain("within 10%");
        assertThat(report.errorLines()).contains(
                "ERRORS impl=distlock db=mariadb scenario=contended threads=4 attempts=1000 errors=1");
    }

    @Test
    void noServerSideErrorMeetsTheContendedGoal() {
        BenchmarkReport report = new BenchmarkReport(BenchmarkPlan.FULL, "test");
        report.serverVersion(TestDatabase.H2, "H2");
        report.add(new StatementCounts.Errors("distlock", "h2", 4, 1_000, 0));

        assertThat(errorsGoal(report, "h2").status()).isEqualTo(BenchmarkReport.Status.MET);
    }

    private static BenchmarkReport.Goal errorsGoal(BenchmarkReport report, String db) {
        return report.goals().stream()
                .filter(goal -> goal.goal().equals("contended server-side errors") && goal.where().startsWith(db))
                .findFirst().orElseThrow();
    }
}

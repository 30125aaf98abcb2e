package io.distlock.torture;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;

import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The run's options as the controller parses them: the default faults and TTL of each store and workload, and the
 * combinations that are refused.
 */
class TortureOptionsTests {

    private static TortureOptions parse(String... args) {
        return TortureOptions.parse(Args.parse(args), Path.of("target"));
    }

    @Test
    void aDatabaseRunInjectsEveryFaultWithAFiveSecondTtl() {
        TortureOptions options = parse("--db", "postgresql");

        assertThat(options.store()).isEqualTo(LockStore.JDBC);
        assertThat(options.storeId()).isEqualTo("postgresql");
        assertThat(options.faults()).isEqualTo(EnumSet.allOf(Fault.class));
        assertThat(options.ttl()).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.rowLockLength()).isGreaterThan(options.ttl());
        assertThat(options.poolHold()).isGreaterThan(options.ttl());
    }

    @Test
    void aRedisRunKeepsItsLedgerInH2AndInjectsKillPauseAndDisconnect() {
        TortureOptions options = parse("--db", "redis", "--seconds", "40");

        assertThat(options.store()).isEqualTo(LockStore.REDIS);
        assertThat(options.storeId()).isEqualTo("redis");
        assertThat(options.database()).isEqualTo(TestDatabase.H2);
        assertThat(options.faults()).containsExactlyInAnyOrder(Fault.KILL, Fault.PAUSE, Fault.DISCONNECT);
    }

    @Test
    void faultsThatDoNotApplyToTheStoreOrWorkloadAreRefusedSayingWhy() {
        assertThatIllegalArgumentException().isThrownBy(() -> parse("--db", "redis", "--faults", "kill,rowlock"))
                .withMessageContaining("not to --db redis");
        assertThatIllegalArgumentException().isThrownBy(() -> parse("--db", "redis", "--faults", "skew"))
                .withMessageContaining("reads no application clock");
        assertThatIllegalArgumentException().isThrownBy(() -> parse("--db", "redis", "--workload", "slots"))
                .withMessageContaining("--workload locks only");
        assertThatIllegalArgumentException().isThrownBy(() -> parse("--db", "h2", "--workload", "slots", "--faults",
                "pool")).withMessageContaining("--workload locks only");
        assertThatIllegalArgumentException().isThrownBy(() -> parse("--db", "h2", "--faults", "kill,stall"))
                .withMessageContaining("choose from kill, pause, disconnect, skew, pool, rowlock");
    }

    @Test
    void theSlotsWorkloadKeepsItsTwoSecondTtl() {
        assertThat(parse("--db", "h2", "--workload", "slots").ttl()).isEqualTo(Duration.ofSeconds(2));
        assertThat(parse("--db", "h2", "--ttl-ms", "2000").ttl()).isEqualTo(Duration.ofSeconds(2));
    }
}

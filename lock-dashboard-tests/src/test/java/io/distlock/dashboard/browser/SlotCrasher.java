package io.distlock.dashboard.browser;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import io.distlock.core.SlotClaim;
import io.distlock.core.SlotSchedule;
import io.distlock.jdbc.JdbcLockRepository;
import org.h2.jdbcx.JdbcDataSource;

/**
 * A replica that takes a slot job's lock, claims its next slot, says so on standard output and then hangs until it is
 * killed: a holder that dies mid-run. Its lease outlives a few of the job's slots, so no replica runs those.
 *
 * <p>Arguments: the H2 URL, the job, the job's period in milliseconds and the lease in milliseconds.
 */
public final class SlotCrasher {

    private SlotCrasher() {
    }

    public static void main(String[] args) throws Exception {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(args[0]);
        dataSource.setUser("sa");
        String job = args[1];
        SlotSchedule schedule = SlotSchedule.fixedRate(Duration.ofMillis(Long.parseLong(args[2])));
        Duration ttl = Duration.ofMillis(Long.parseLong(args[3]));
        JdbcLockRepository repository = JdbcLockRepository.builder(dataSource).build();
        String owner = "replica-crash:" + UUID.randomUUID().toString().replace("-", "");
        while (repository.acquire(job, owner, ttl).isEmpty()) {
            Thread.sleep(20);
        }
        Instant slot = schedule.next(Instant.now());
        while (Instant.now().isBefore(slot)) {
            Thread.sleep(5);
        }
        SlotClaim claim = repository.claimSlot(job, owner, slot, false);
        System.out.println("CLAIMED " + claim.status() + " " + slot);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}

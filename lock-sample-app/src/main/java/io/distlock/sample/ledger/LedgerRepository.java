package io.distlock.sample.ledger;

import java.time.Instant;

import io.distlock.jdbc.FencingGuard;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The ledger table, {@code sample_ledger_entries}. Every append passes the fence first, in the same transaction, so a refused token writes nothing.
 */
@Repository
public class LedgerRepository {

    static final String FENCE = "ledger";

    private final JdbcClient jdbc;

    private final FencingGuard fence;

    public LedgerRepository(JdbcClient jdbc, FencingGuard fence) {
        this.jdbc = jdbc;
        this.fence = fence;
    }

    /**
     * Appends an entry if the token is not older than the newest the ledger accepted.
     *
     * @param slot the tick the entry belongs to
     * @param replica who writes it
     * @param token the fencing token of the writer's lease
     * @return whether the entry was written
     */
    @Transactional
    public boolean append(Instant slot, String replica, long token) {
        if (!fence.admit(FENCE, token).accepted()) {
            return false;
        }
        jdbc.sql("INSERT INTO sample_ledger_entries (slot, replica, token) VALUES (?, ?, ?)")
                .params(slot.toString(), replica, token).update();
        return true;
    }

    /**
     * The newest token the ledger accepted.
     *
     * @return the token, or 0 before the first write
     */
    public long newestToken() {
        return fence.lastToken(FENCE).orElse(0);
    }

    /**
     * How many entries the ledger holds.
     *
     * @return the count
     */
    public long size() {
        return jdbc.sql("SELECT COUNT(*) FROM sample_ledger_entries").query(Long.class).single();
    }
}

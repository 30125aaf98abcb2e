package io.distlock.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.distlock.core.TimeSource;
import io.distlock.jdbc.dialect.LockDialect;
import org.jspecify.annotations.Nullable;

/**
 * A statement whose {@link LockDialect#NOW} and {@link LockDialect#NOW_UNDER_LOCK} markers became the database clock
 * or, in application-time mode, bound parameters carrying one reading of the application's clock; it binds the
 * caller's arguments around them in order.
 */
final class TimedStatement {

    private final String sql;

    private final LockDialect dialect;

    /** For every {@code ?} of {@link #sql}, in order: whether it carries the current time. */
    private final boolean[] timeSlots;

    private TimedStatement(String sql, LockDialect dialect, boolean[] timeSlots) {
        this.sql = sql;
        this.dialect = dialect;
        this.timeSlots = timeSlots;
    }

    static TimedStatement compile(String template, LockDialect dialect, TimeSource timeSource) {
        StringBuilder sql = new StringBuilder(template.length() + 64);
        List<Boolean> slots = new ArrayList<>();
        for (int i = 0; i < template.length(); i++) {
            String marker = template.startsWith(LockDialect.NOW, i) ? LockDialect.NOW
                    : template.startsWith(LockDialect.NOW_UNDER_LOCK, i) ? LockDialect.NOW_UNDER_LOCK : null;
            if (marker != null) {
                if (timeSource == TimeSource.DATABASE) {
                    sql.append(marker.equals(LockDialect.NOW) ? dialect.currentTimeExpression()
                            : dialect.currentTimeUnderLockExpression());
                }
                else {
                    sql.append(dialect.timeParameterExpression());
                    slots.add(Boolean.TRUE);
                }
                i += marker.length() - 1;
            }
            else {
                char c = template.charAt(i);
                if (c == '?') {
                    slots.add(Boolean.FALSE);
                }
                sql.append(c);
            }
        }
        boolean[] timeSlots = new boolean[slots.size()];
        for (int i = 0; i < timeSlots.length; i++) {
            timeSlots[i] = slots.get(i);
        }
        return new TimedStatement(sql.toString(), dialect, timeSlots);
    }

    String sql() {
        return sql;
    }

    /**
     * Binds the arguments in order, and the current time wherever a marker was.
     *
     * @param statement the prepared {@link #sql()}
     * @param clock the application's clock, read once, and only in application-time mode
     * @param args the statement's own parameters
     */
    void bind(PreparedStatement statement, Clock clock, Object... args) throws SQLException {
        @Nullable Instant now = null;
        int next = 0;
        for (int slot = 0; slot < timeSlots.length; slot++) {
            Object value;
            if (timeSlots[slot]) {
                now = now != null ? now : clock.instant();
                value = dialect.instantParameter(now);
            }
            else {
                value = args[next++];
            }
            statement.setObject(slot + 1, value);
        }
        if (next != args.length) {
            throw new IllegalStateException("Statement takes " + next + " arguments, got " + args.length + ": " + sql);
        }
    }
}

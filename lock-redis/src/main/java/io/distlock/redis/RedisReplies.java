package io.distlock.redis;

import java.time.Instant;
import java.util.List;

import io.distlock.core.LockRecord;
import io.distlock.core.SlotRun;
import io.distlock.core.SlotRunOutcome;

import org.springframework.data.redis.RedisSystemException;

/**
 * Reads the replies of the lock scripts: numbers, texts, lock records and slot-run entries, refusing a reply that
 * does not have the shape the script gives with a {@link RedisSystemException} that shows it.
 */
final class RedisReplies {

    private RedisReplies() {
    }

    /** A lock record from three numbers of a reply: token, acquired at and expires at (server milliseconds). */
    static LockRecord record(String resource, String owner, List<Object> values, int from) {
        expectSize(values, from + 3);
        return new LockRecord(resource, owner, number(values, from), Instant.ofEpochMilli(number(values, from + 1)),
                Instant.ofEpochMilli(number(values, from + 2)));
    }

    /** A slot run from an entry of a job's runs list: {@code slot|run|token|started|finished|outcome|owner}. */
    static SlotRun slotRun(String job, String entry) {
        String[] fields = entry.split("\\|", 7);
        if (fields.length != 7) {
            throw new RedisSystemException("Unexpected slot run entry of job '" + job + "': " + entry, null);
        }
        return new SlotRun(job, Instant.ofEpochMilli(Long.parseLong(fields[0])), Integer.parseInt(fields[1]),
                fields[6], Long.parseLong(fields[2]), Instant.ofEpochMilli(Long.parseLong(fields[3])),
                fields[4].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(fields[4])),
                SlotRunOutcome.valueOf(fields[5]));
    }

    static void expectSize(List<?> reply, int size) {
        if (reply.size() < size) {
            throw new RedisSystemException("Unexpected reply to a lock script: " + reply, null);
        }
    }

    static long number(List<Object> reply, int index) {
        Object value = reply.get(index);
        try {
            if (value instanceof Number n) {
                return n.longValue();
            }
            if (value instanceof String s) {
                return Long.parseLong(s);
            }
        }
        catch (NumberFormatException ex) {
            // reported below
        }
        throw new RedisSystemException("Unexpected value at " + index + " of a lock script's reply: " + reply, null);
    }

    static String text(List<Object> reply, int index) {
        Object value = reply.get(index);
        if (value instanceof String s && !s.isEmpty()) {
            return s;
        }
        throw new RedisSystemException("Unexpected value at " + index + " of a lock script's reply: " + reply, null);
    }
}

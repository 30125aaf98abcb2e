package io.distlock.torture;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the workers of the Redis failover run believed and did, on this JVM's monotonic clock: every acquisition
 * answered as held (the owner, its token, from the answer until the end of what its holder could believe: the send
 * time of its last successful acquire or renewal plus the TTL, cut short when it learns otherwise or sends its
 * release), and every write the fenced ledger accepted. From it come the run's counts: owners whose beliefs
 * overlapped, accepted writes whose token was older than one accepted before, and tokens that went back or repeated
 * from one owner to the next.
 */
final class FailoverHistory {

    private final List<Holding> holdings = new ArrayList<>();

    private final Map<String, AtomicLong> highestAccepted = new ConcurrentHashMap<>();

    private final AtomicLong staleWritesAccepted = new AtomicLong();

    private final AtomicLong writesAccepted = new AtomicLong();

    private final List<String> overlapExamples = new ArrayList<>();

    /** One acquisition its holder was told it had. */
    static final class Holding {

        final String resource;

        final String owner;

        final long token;

        final long start;

        private volatile long end;

        private volatile boolean ended;

        Holding(String resource, String owner, long token, long start, long deadline) {
            this.resource = resource;
            this.owner = owner;
            this.token = token;
            this.start = start;
            this.end = deadline;
        }

        /** A renewal sent at {@code sent} succeeded: the holder may believe until {@code deadline}. */
        synchronized void extend(long deadline) {
            if (!ended) {
                end = Math.max(end, deadline);
            }
        }

        /** The holder stops believing at {@code at} (it learnt it lost the lock, or sends its release). */
        synchronized void end(long at) {
            end = Math.min(end, at);
            ended = true;
        }

        /** @return whether the holder believes it holds the lock at {@code at} */
        boolean believedAt(long at) {
            return start <= at && at < end;
        }

        long end() {
            return end;
        }
    }

    synchronized Holding acquired(String resource, String owner, long token, long start, long deadline) {
        Holding holding = new Holding(resource, owner, token, start, deadline);
        holdings.add(holding);
        return holding;
    }

    /** The highest token of a write the ledger accepted on {@code resource} that has completed, before a write. */
    long highestAcceptedBefore(String resource) {
        return highestAccepted.computeIfAbsent(resource, r -> new AtomicLong()).get();
    }

    /** The ledger accepted a write with {@code token}, which started when the highest accepted was {@code before}. */
    void accepted(String resource, long token, long before) {
        writesAccepted.incrementAndGet();
        if (token < before) {
            staleWritesAccepted.incrementAndGet();
        }
        highestAccepted.computeIfAbsent(resource, r -> new AtomicLong()).accumulateAndGet(token, Math::max);
    }

    /** The acquisitions believed held at {@code at}. */
    synchronized List<Holding> believedAt(long at) {
        return holdings.stream().filter(h -> h.believedAt(at)).toList();
    }

    /** The first acquisition answered after {@code at}, as its start, or -1. */
    synchronized long firstAcquisitionAfter(long at) {
        return holdings.stream().mapToLong(h -> h.start).filter(s -> s > at).min().orElse(-1);
    }

    synchronized int acquisitions() {
        return holdings.size();
    }

    long writesAccepted() {
        return writesAccepted.get();
    }

    long staleWritesAccepted() {
        return staleWritesAccepted.get();
    }

    /** The first overlaps {@link #overlappingOwners()} found, in words. */
    synchronized List<String> overlapExamples() {
        return List.copyOf(overlapExamples);
    }

    /** Pairs of acquisitions of one resource by different owners whose beliefs overlapped. */
    synchronized long overlappingOwners() {
        long overlaps = 0;
        for (List<Holding> byResource : byResource()) {
            for (int i = 0; i < byResource.size(); i++) {
                Holding earlier = byResource.get(i);
                for (int j = i + 1; j < byResource.size() && byResource.get(j).start < earlier.end(); j++) {
                    Holding later = byResource.get(j);
                    if (!later.owner.equals(earlier.owner)) {
                        overlaps++;
                        if (overlapExamples.size() < 10) {
                            overlapExamples.add(earlier.resource + ": " + earlier.owner + " (token " + earlier.token
                                    + ") believed until " + (earlier.end() - later.start) / 1_000_000 + " ms after "
                                    + later.owner + " (token " + later.token + ") acquired");
                        }
                    }
                }
            }
        }
        return overlaps;
    }

    /** Next owners of a resource whose token was smaller ({@code repeats == false}) or equal to the previous one's. */
    synchronized long tokenSteps(boolean repeats) {
        long count = 0;
        for (List<Holding> byResource : byResource()) {
            for (int i = 1; i < byResource.size(); i++) {
                long previous = byResource.get(i - 1).token;
                long next = byResource.get(i).token;
                if (repeats ? next == previous : next < previous) {
                    count++;
                }
            }
        }
        return count;
    }

    private List<List<Holding>> byResource() {
        Map<String, List<Holding>> grouped = new java.util.TreeMap<>();
        holdings.forEach(h -> grouped.computeIfAbsent(h.resource, r -> new ArrayList<>()).add(h));
        grouped.values().forEach(list -> list.sort(Comparator.comparingLong(h -> h.start)));
        return new ArrayList<>(grouped.values());
    }
}

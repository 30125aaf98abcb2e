package io.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.distlock.testsupport.TestDatabase;
import org.jspecify.annotations.Nullable;

/**
 * The handover scenario over every store of the run: each round runs every implementation on every store once, one
 * after another, starting with the next one each round, so that Redisson's anchor figure is measured seconds apart
 * from the figures it is compared with.
 */
final class HandoverScenario {

    /** The resource all threads wait for. */
    static final String RESOURCE = "bench-handover";

    private HandoverScenario() {
    }

    /**
     * Runs the scenario.
     *
     * @param plan how long and how many rounds
     * @param databases the reachable databases to measure on
     * @param anchor whether to measure Redisson, the anchor (Redis answers)
     * @param redis whether to measure every implementation on Redis, not only the anchor
     * @param only keep only these implementation ids ({@code distlock} and {@code redisson} are always kept), or
     *     {@code null} for all
     * @return one figure per store and implementation
     * @throws InterruptedException when interrupted
     */
    static List<HandoverFigure> run(BenchmarkPlan plan, List<TestDatabase> databases, boolean anchor,
            boolean redis, @Nullable List<String> only) throws InterruptedException {
        List<Target> targets = new ArrayList<>();
        List<LockStore> stores = new ArrayList<>();
        try {
            for (TestDatabase db : databases) {
                stores.add(LockStore.open(db.id(), "handover", List.of()));
            }
            if (anchor) {
                stores.add(LockStore.open(RedisServer.ID, "handover", List.of()));
            }
            for (LockStore store : stores) {
                for (HandoverImplementation impl : HandoverImplementation.on(store.id())) {
                    boolean measured = !store.id().equals(RedisServer.ID) || redis
                            || impl == HandoverImplementation.REDISSON;
                    if (measured && kept(impl, only)) {
                        targets.add(new Target(store, impl));
                    }
                }
            }
            int rounds = plan.handoverRounds();
            Map<Target, List<HandoverRun.Result>> results = new LinkedHashMap<>();
            for (int round = 0; round < rounds; round++) {
                List<Target> order = new ArrayList<>(targets);
                Collections.rotate(order, -(round % Math.max(1, order.size())));
                for (Target target : order) {
                    log("handover of " + target.impl.id() + " on " + target.store.id() + " with " + HandoverRun.WAITERS
                            + " waiters" + (rounds > 1 ? ", round " + (round + 1) + " of " + rounds : ""));
                    results.computeIfAbsent(target, t -> new ArrayList<>()).add(runOnce(plan, target));
                }
            }
            List<HandoverFigure> figures = new ArrayList<>();
            for (Target target : targets) {
                figures.add(HandoverFigure.of(target.store.id(), target.impl.id(), results.get(target)));
            }
            return figures;
        }
        finally {
            stores.forEach(LockStore::close);
        }
    }

    private static boolean kept(HandoverImplementation impl, @Nullable List<String> only) {
        String id = impl.id();
        return only == null || id.equals("distlock") || id.equals("redisson") || only.contains(id);
    }

    private static HandoverRun.Result runOnce(BenchmarkPlan plan, Target target) throws InterruptedException {
        target.store.reset();
        try (HandoverSubject subject = target.impl.open(target.store, HandoverRun.WAITERS + 1)) {
            HandoverRun.Result result = HandoverRun.run(subject, RESOURCE, Duration.ofMillis(plan.handoverWarmupMillis()),
                    Duration.ofMillis(plan.handoverMillis()));
            if (result.timeouts() > 0) {
                log("NOTICE: " + result.timeouts() + " wait(s) of " + target.impl.id() + " on " + target.store.id()
                        + " ran out after " + HandoverRun.MAX_WAIT);
            }
            return result;
        }
    }

    private static void log(String message) {
        System.out.println("[bench] " + message);
    }

    /** One implementation on one store. */
    private record Target(LockStore store, HandoverImplementation impl) {
    }
}

package io.distlock.virtualthreads;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.SlotExecution;
import io.distlock.jdbc.LockTableName;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import io.distlock.spring.OnLocked;
import io.distlock.spring.OncePerSlot;
import io.distlock.testsupport.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Boot application with {@code spring.threads.virtual.enabled=true}, on Java 21 and later: guarded methods
 * called from hundreds of virtual threads never overlap and see their lease through {@link CurrentLease}; a lease
 * held by a virtual thread for several TTLs is kept alive by the watchdog; {@code @Scheduled} jobs run on Spring
 * Boot's virtual-thread scheduler, and two replicas run every slot of a {@code @OncePerSlot} job, synchronous or
 * reactive, once between them; futures and monos guarded from virtual threads hold their lock until their work ends.
 */
class VirtualThreadsTests {

    static final List<SlotRun> slotRuns = new CopyOnWriteArrayList<>();

    static final List<SlotRun> reactiveSlotRuns = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = { "H2", "POSTGRESQL" })
    void guardedMethodsCalledFromVirtualThreadsNeverOverlapAndSeeTheirLease(TestDatabase database) throws Exception {
        try (Replica replica = Replica.start(database, "calls")) {
            Guarded guarded = replica.context().getBean(Guarded.class);
            Calls seen = replica.context().getBean(Calls.class);
            int calls = 200;
            List<Future<String>> results = new ArrayList<>();
            try (ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor()) {
                CountDownLatch start = new CountDownLatch(1);
                for (int i = 0; i < calls; i++) {
                    int resource = i % 4;
                    results.add(virtualThreads.submit(() -> {
                        start.await();
                        return guarded.work(replica.prefix() + ":" + resource);
                    }));
                }
                start.countDown();
                for (Future<String> result : results) {
                    assertThat(result.get(2, TimeUnit.MINUTES)).startsWith("virtual ");
                }
            }
            assertThat(seen.maxConcurrency.values()).as("holders of one resource at a time").containsOnly(1);
            assertThat(seen.calls).hasValue(calls);
            assertThat(seen.leaseMismatches).as("calls whose CurrentLease was not their own resource's").hasValue(0);
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = { "H2", "POSTGRESQL" })
    void futuresAndMonosGuardedFromVirtualThreadsHoldTheirLockUntilTheirWorkEnds(TestDatabase database)
            throws Exception {
        try (Replica replica = Replica.start(database, "async")) {
            Guarded guarded = replica.context().getBean(Guarded.class);
            Calls seen = replica.context().getBean(Calls.class);
            int calls = 100;
            List<Future<String>> results = new ArrayList<>();
            try (ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor()) {
                CountDownLatch start = new CountDownLatch(1);
                for (int i = 0; i < calls; i++) {
                    String resource = replica.prefix() + ":async:" + (i % 4);
                    boolean future = i % 2 == 0;
                    results.add(virtualThreads.submit(() -> {
                        start.await();
                        return future ? guarded.future(resource).get(2, TimeUnit.MINUTES)
                                : guarded.mono(resource).block(Duration.ofMinutes(2));
                    }));
                }
                start.countDown();
                for (Future<String> result : results) {
                    assertThat(result.get(3, TimeUnit.MINUTES)).startsWith("async ");
                }
            }
            assertThat(seen.maxConcurrency.values()).as("holders of one resource at a time, work included")
                    .containsOnly(1);
            assertThat(seen.calls).hasValue(calls);
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = { "H2", "POSTGRESQL" })
    void aLeaseHeldByAVirtualThreadForSeveralTtlsIsKeptAliveAndRefusedToOthers(TestDatabase database)
            throws Exception {
        try (Replica replica = Replica.start(database, "long")) {
            Guarded guarded = replica.context().getBean(Guarded.class);
            Calls seen = replica.context().getBean(Calls.class);
            LockManager other = replica.context().getBean(LockManager.class);
            String resource = replica.prefix() + ":long";
            Thread holder = Thread.ofVirtual().start(() -> guarded.holdForThreeTtls(resource));
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.holding.get() == 1);
            // While the virtual thread holds it across three renewals, another owner is refused every time.
            await().pollDelay(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThat(other.tryAcquire(resource, Duration.ofSeconds(1))).isEmpty());
            holder.join(Duration.ofSeconds(20));
            assertThat(holder.isAlive()).isFalse();
            assertThat(seen.lostLeases).as("leases found lost").hasValue(0);
            assertThat(other.tryAcquire(resource, Duration.ofSeconds(1))).as("free once the work returned").isPresent()
                    .get().satisfies(Lease::release);
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = { "H2", "POSTGRESQL" })
    void twoReplicasOnVirtualThreadSchedulersRunEverySlotOnceBetweenThem(TestDatabase database) {
        database.assumeAvailable();
        slotRuns.clear();
        reactiveSlotRuns.clear();
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        try (Replica first = Replica.start(database, "slots-a", tag); Replica second = Replica.start(database,
                "slots-b", tag)) {
            assertThat(first.context().getBean(TaskScheduler.class).getClass().getSimpleName())
                    .isEqualTo("SimpleAsyncTaskScheduler");
            Instant joined = Instant.now();
            await().atMost(Duration.ofSeconds(30)).until(() -> slotRuns.stream()
                    .filter(run -> run.slot().isAfter(joined.plusSeconds(1))).map(SlotRun::slot).distinct().count() >= 5
                    && reactiveSlotRuns.stream().filter(run -> run.slot().isAfter(joined.plusSeconds(1)))
                            .map(SlotRun::slot).distinct().count() >= 5);
        }
        assertThat(reactiveSlotRuns.stream().collect(Collectors.groupingBy(SlotRun::slot)).values())
                .as("runs of each slot of the reactive job").allSatisfy(runs -> assertThat(runs).hasSize(1));
        Map<Instant, List<SlotRun>> bySlot = slotRuns.stream().collect(Collectors.groupingBy(SlotRun::slot,
                TreeMap::new, Collectors.toList()));
        assertThat(bySlot.values()).as("runs of each slot").allSatisfy(runs -> assertThat(runs).hasSize(1));
        assertThat(slotRuns).as("scheduled runs on virtual threads").allMatch(SlotRun::virtual);
        List<Instant> slots = List.copyOf(bySlot.keySet());
        for (int i = 1; i < slots.size(); i++) {
            assertThat(slots.get(i)).as("the slot after %s", slots.get(i - 1)).isEqualTo(slots.get(i - 1).plusSeconds(1));
        }
    }

    /** One replica: a Spring Boot application with virtual threads, on a lock table of its own test's. */
    record Replica(ConfigurableApplicationContext context, String prefix, TestDatabase database, String table)
            implements AutoCloseable {

        static Replica start(TestDatabase database, String name) {
            return start(database, name, UUID.randomUUID().toString().replace("-", "").substring(0, 10));
        }

        static Replica start(TestDatabase database, String name, String tag) {
            database.assumeAvailable();
            String table = "dl_vt_" + tag;
            String url = database == TestDatabase.H2 ? "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1" : database.url();
            ConfigurableApplicationContext context = new SpringApplicationBuilder(VirtualThreadsApplication.class)
                .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties("spring.threads.virtual.enabled=true", "spring.datasource.url=" + url,
                        "spring.datasource.username=" + database.user(),
                        "spring.datasource.password=" + database.password(), "distributed-lock.table-name=" + table,
                        "distributed-lock.jdbc.initialize-schema=always", "distributed-lock.owner-prefix=" + name,
                        "test.replica=" + name, "test.slots=" + name.startsWith("slots"), "test.job=vt-" + tag)
                .run();
            return new Replica(context, "vt-" + tag, database, table);
        }

        @Override
        public void close() {
            context.close();
            if (database != TestDatabase.H2 && !prefix.isEmpty()) {
                try {
                    database.dropLockTable(new LockTableName(table));
                }
                catch (RuntimeException alreadyDropped) {
                    // The other replica of the same table dropped it first.
                }
            }
        }
    }

    record SlotRun(Instant slot, String replica, boolean virtual) {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableScheduling
    static class VirtualThreadsApplication {

        @Bean
        Calls calls() {
            return new Calls();
        }

        @Bean
        Guarded guarded(Calls calls) {
            return new Guarded(calls);
        }

        @Bean
        EverySecondReactive everySecondReactive(Environment environment) {
            return new EverySecondReactive(environment.getRequiredProperty("test.replica"),
                    environment.getRequiredProperty("test.slots", Boolean.class));
        }

        @Bean
        EverySecond everySecond(Environment environment) {
            return new EverySecond(environment.getRequiredProperty("test.replica"),
                    environment.getRequiredProperty("test.slots", Boolean.class));
        }
    }

    /** What the guarded methods saw: who held what, and on which kind of thread. */
    static final class Calls {

        final Map<String, AtomicInteger> active = new ConcurrentHashMap<>();

        final Map<String, Integer> maxConcurrency = new ConcurrentHashMap<>();

        final AtomicInteger calls = new AtomicInteger();

        final AtomicInteger leaseMismatches = new AtomicInteger();

        final AtomicInteger holding = new AtomicInteger();

        final AtomicInteger lostLeases = new AtomicInteger();
    }

    /** Guarded methods that record what they saw in {@link Calls}. */
    public static class Guarded {

        private final Calls seen;

        Guarded(Calls seen) {
            this.seen = seen;
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT2S", onLocked = OnLocked.WAIT, waitTimeout = "PT60S")
        public String work(String resource) throws InterruptedException {
            int now = seen.active.computeIfAbsent(resource, key -> new AtomicInteger()).incrementAndGet();
            seen.maxConcurrency.merge(resource, now, Math::max);
            try {
                Lease lease = CurrentLease.get().orElseThrow();
                if (!lease.resource().equals(resource)) {
                    seen.leaseMismatches.incrementAndGet();
                }
                Thread.sleep(2);
                seen.calls.incrementAndGet();
                return (Thread.currentThread().isVirtual() ? "virtual " : "platform ") + lease.token();
            }
            finally {
                seen.active.get(resource).decrementAndGet();
            }
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT2S", onLocked = OnLocked.WAIT, waitTimeout = "PT60S")
        public CompletableFuture<String> future(String resource) {
            // The work goes on on another virtual thread, after the method returned.
            return CompletableFuture.supplyAsync(() -> asyncWork(resource), task -> Thread.ofVirtual().start(task));
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT2S", onLocked = OnLocked.WAIT, waitTimeout = "PT60S")
        public Mono<String> mono(String resource) {
            return Mono.fromCallable(() -> asyncWork(resource)).subscribeOn(Schedulers.boundedElastic());
        }

        private String asyncWork(String resource) {
            int now = seen.active.computeIfAbsent(resource, key -> new AtomicInteger()).incrementAndGet();
            seen.maxConcurrency.merge(resource, now, Math::max);
            try {
                Thread.sleep(5);
                seen.calls.incrementAndGet();
                return "async " + resource;
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
            finally {
                seen.active.get(resource).decrementAndGet();
            }
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
        public void holdForThreeTtls(String resource) {
            seen.holding.incrementAndGet();
            Lease lease = CurrentLease.get().orElseThrow();
            try {
                Thread.sleep(Duration.ofSeconds(3));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            if (lease.isLost()) {
                seen.lostLeases.incrementAndGet();
            }
        }
    }

    /** A reactive job claimed once per slot, every second, which Spring's scheduler subscribes to. */
    public static class EverySecondReactive {

        private final String replica;

        private final boolean recording;

        EverySecondReactive(String replica, boolean recording) {
            this.replica = replica;
            this.recording = recording;
        }

        @Scheduled(cron = "* * * * * *", zone = "UTC")
        @OncePerSlot(job = "${test.job}-reactive", ttl = "PT10S")
        public Mono<Void> run() {
            return LockContext.slot().doOnNext(slot -> {
                if (recording) {
                    reactiveSlotRuns.add(new SlotRun(slot.slot(), replica, Thread.currentThread().isVirtual()));
                }
            }).then();
        }
    }

    /** A job claimed once per slot, every second. */
    public static class EverySecond {

        private final String replica;

        private final boolean recording;

        EverySecond(String replica, boolean recording) {
            this.replica = replica;
            this.recording = recording;
        }

        @Scheduled(cron = "* * * * * *", zone = "UTC")
        @OncePerSlot(job = "${test.job}", ttl = "PT10S")
        public void run() {
            if (recording) {
                slotRuns.add(new SlotRun(SlotExecution.current().orElseThrow().slot(), replica,
                        Thread.currentThread().isVirtual()));
            }
        }
    }
}

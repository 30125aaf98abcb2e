package io.distlock.torture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Starts, replaces and stops the worker JVMs: {@code processes} slots, each running one worker at a time. Every
 * started process id goes to {@code workers.pids} in the run directory, so that {@code scripts/torture.sh} can clean
 * up even if the controller itself is killed.
 */
final class WorkerPool {

    /** Small, quick to start, and light on the CPU the other workers need: C1 only, one compiler thread. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx128m", "-Xss512k", "-XX:TieredStopAtLevel=1",
            "-XX:CICompilerCount=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    private static final long MAX_SKEW_MILLIS = 5 * 60 * 1000;

    private final TortureOptions options;

    private final String url;

    private final List<String> storeArguments;

    private final Path pidFile;

    private final List<WorkerProcess> started = Collections.synchronizedList(new ArrayList<>());

    private final Map<Integer, WorkerProcess> current = new ConcurrentHashMap<>();

    private final Map<Long, Boolean> paused = new ConcurrentHashMap<>();

    /**
     * @param url the JDBC URL of the database the workers share
     * @param storeArguments the workers' options that name their lock store ({@code --store redis …}), or none
     */
    WorkerPool(TortureOptions options, String url, List<String> storeArguments) {
        this.options = options;
        this.url = url;
        this.storeArguments = List.copyOf(storeArguments);
        this.pidFile = options.runDirectory().resolve("workers.pids");
    }

    /** Starts every slot's worker, waits until all are ready, then lets them take locks together. */
    void startAll(long readyTimeoutMillis) throws IOException, InterruptedException {
        for (int slot = 0; slot < options.processes(); slot++) {
            start(slot);
        }
        awaitReady(readyTimeoutMillis);
        current.values().forEach(WorkerProcess::go);
    }

    /**
     * Starts a worker in a slot. Its clock offset is the skew fault's (locks workload) or its slot clock's offset
     * (slots workload): drawn in the slot's share of -3 s to +3 s, so that some workers run behind and some ahead; a
     * replacement draws its own in the same share. In the slots workload the worker of slot 0 also has a clock that
     * jumps {@link TortureOptions#SLOT_JUMP} ahead and back again, over and over.
     */
    WorkerProcess start(int slot) throws IOException {
        boolean slots = options.workload() == Workload.SLOTS;
        long skew = slots ? randomSlotOffset(slot) : options.faults().contains(Fault.SKEW) ? randomSkew() : 0;
        Path log = options.runDirectory().resolve("worker-" + slot + "-" + started.size() + ".log");
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), TortureWorker.class.getName(),
                "--db", options.database().id(), "--slot", Integer.toString(slot),
                "--threads", Integer.toString(options.threads()), "--locks", Integer.toString(options.locks()),
                "--ttl-ms", Long.toString(options.ttl().toMillis()), "--skew-ms", Long.toString(slots ? 0 : skew),
                "--max-seconds", Long.toString(options.duration().getSeconds() + 120)));
        command.addAll(storeArguments);
        if (slots) {
            command.addAll(List.of("--workload", "slots", "--period-ms",
                    Long.toString(TortureOptions.SLOT_PERIOD.toMillis()), "--slot-offset-ms", Long.toString(skew),
                    "--slot-jump-ms", Long.toString(slot == 0 ? TortureOptions.SLOT_JUMP.toMillis() : 0)));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("DISTLOCK_TORTURE_URL", url);
        builder.environment().put("DISTLOCK_TORTURE_USER", options.database().user());
        builder.environment().put("DISTLOCK_TORTURE_PASSWORD", options.database().password());
        WorkerProcess worker = new WorkerProcess(slot, builder.start(), log, skew);
        Files.writeString(pidFile, worker.pid() + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        started.add(worker);
        current.put(slot, worker);
        return worker;
    }

    /** Starts a new worker in the slot of one that was killed; it takes locks as soon as it is ready. */
    WorkerProcess replace(WorkerProcess killed) throws IOException {
        WorkerProcess replacement = start(killed.slot());
        replacement.go();
        return replacement;
    }

    private void awaitReady(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        for (WorkerProcess worker : current.values()) {
            while (!worker.isReady()) {
                if (!worker.isAlive()) {
                    throw new IllegalStateException("Worker " + worker.name() + " exited at start-up; see "
                            + worker.log());
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("Worker " + worker.name() + " not ready after " + timeoutMillis
                            + " ms; see " + worker.log());
                }
                Thread.sleep(100);
            }
        }
    }

    /** The running, unpaused worker with this process id. */
    Optional<WorkerProcess> running(long pid) {
        return current.values().stream().filter(w -> w.pid() == pid && w.isAlive() && !paused.containsKey(pid))
                .findFirst();
    }

    void markPaused(WorkerProcess worker, boolean isPaused) {
        if (isPaused) {
            paused.put(worker.pid(), Boolean.TRUE);
        }
        else {
            paused.remove(worker.pid());
        }
    }

    List<WorkerProcess> started() {
        synchronized (started) {
            return List.copyOf(started);
        }
    }

    /** Asks every running worker to stop, waits for them, and kills those that outstay {@code graceMillis}. */
    void stopAll(long graceMillis) throws InterruptedException {
        for (WorkerProcess worker : current.values()) {
            worker.signal("CONT");
            worker.requestStop();
        }
        long deadline = System.currentTimeMillis() + graceMillis;
        for (WorkerProcess worker : current.values()) {
            if (!worker.awaitExit(Math.max(1, deadline - System.currentTimeMillis()))) {
                System.out.println("worker " + worker.name() + " did not stop within " + graceMillis + " ms: killed");
                worker.kill();
            }
        }
    }

    /** Last resort on any exit path: no worker outlives the controller, paused or not. */
    void destroyAll() {
        for (WorkerProcess worker : started()) {
            if (worker.isAlive()) {
                worker.signal("CONT");
                worker.kill();
            }
        }
    }

    private long randomSlotOffset(int slot) {
        long max = TortureOptions.MAX_SLOT_OFFSET.toMillis();
        long share = 2 * max / options.processes();
        long from = -max + slot * share;
        return ThreadLocalRandom.current().nextLong(from, from + share + 1);
    }

    private static long randomSkew() {
        long skew = ThreadLocalRandom.current().nextLong(-MAX_SKEW_MILLIS, MAX_SKEW_MILLIS + 1);
        return skew == 0 ? 1 : skew;
    }
}

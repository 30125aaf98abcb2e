package io.distlock.torture;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One worker JVM as the controller sees it: its slot, process, log file and clock offset.
 */
final class WorkerProcess {

    /** What {@link Process#exitValue()} reports for a process ended by SIGKILL. */
    static final int KILLED_EXIT = 128 + 9;

    private final int slot;

    private final Process process;

    private final Path log;

    private final long skewMillis;

    WorkerProcess(int slot, Process process, Path log, long skewMillis) {
        this.slot = slot;
        this.process = process;
        this.log = log;
        this.skewMillis = skewMillis;
    }

    int slot() {
        return slot;
    }

    long pid() {
        return process.pid();
    }

    /** The name the worker gives itself and puts in front of its owner tokens. */
    String name() {
        return "w" + slot + "-" + pid();
    }

    Path log() {
        return log;
    }

    long skewMillis() {
        return skewMillis;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** @return the exit code, or {@code null} while it runs */
    Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    boolean isReady() {
        return logLines().stream().anyMatch(line -> line.contains(" EVENT READY "));
    }

    List<String> logLines() {
        try {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
        }
        catch (IOException ex) {
            return List.of();
        }
    }

    /** How many lines of the worker's output contain the marker so far. */
    long count(String marker) {
        return logLines().stream().filter(line -> line.contains(marker)).count();
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}) with {@code kill}, to this process id only. */
    void signal(String signal) {
        if (!process.isAlive()) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid() + " failed");
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("Cannot run kill -" + signal + " " + pid(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the process with SIGKILL and waits for it. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets the worker start taking locks. */
    void go() {
        command("go");
    }

    /** Asks the worker to finish its sections and exit. */
    void requestStop() {
        command("stop");
    }

    /** Writes a command to the worker's standard input: {@code go}, {@code stop} or {@code hog <millis>}. */
    void command(String command) {
        try {
            OutputStream in = process.getOutputStream();
            in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }
        catch (IOException ex) {
            // Already gone.
        }
    }

    boolean awaitExit(long millis) throws InterruptedException {
        return process.waitFor(millis, TimeUnit.MILLISECONDS);
    }
}

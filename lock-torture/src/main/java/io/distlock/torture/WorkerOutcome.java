package io.distlock.torture;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What the checker needs to know about one worker process after the run.
 *
 * @param name the worker's name, {@code w<slot>-<pid>}
 * @param pid its process id
 * @param skewMillis its application clock's offset
 * @param exitCode its exit code, or {@code null} if it still runs
 * @param killedByFault whether the kill fault ended it
 * @param logLines its output
 */
record WorkerOutcome(String name, long pid, long skewMillis, @Nullable Integer exitCode, boolean killedByFault,
        List<String> logLines) {

    /** An exit that was neither a clean stop nor a planned kill. */
    boolean abnormalExit() {
        int expected = killedByFault ? WorkerProcess.KILLED_EXIT : 0;
        return exitCode == null || exitCode != expected;
    }

    long count(String marker) {
        return logLines.stream().filter(line -> line.contains(marker)).count();
    }

    /** {@code UNEXPECTED} and {@code ORPHANED} events, and ERROR log lines of the library. */
    List<String> unexpectedLines() {
        return logLines.stream().filter(line -> line.contains(" EVENT UNEXPECTED ") || line.contains(" EVENT ORPHANED ")
                || (line.contains(" ERROR ") && line.contains("] io.distlock."))).toList();
    }
}

/**
 * The multi-process torture test: a controller ({@link io.distlock.torture.TortureController}) starts worker JVMs
 * ({@link io.distlock.torture.TortureWorker}) that take the same few locks through the public API, injects faults
 * (kill, pause, disconnect, clock skew) and checks what the workers recorded in the database
 * ({@link io.distlock.torture.TortureChecker}). In the slots workload the workers run the same jobs once per slot,
 * each by a skewed slot clock ({@link io.distlock.torture.SlotWork}), and the
 * {@link io.distlock.torture.SlotChecker} checks their runs. Run it with {@code scripts/torture.sh}.
 */
@NullMarked
package io.distlock.torture;

import org.jspecify.annotations.NullMarked;

/**
 * The multi-process torture test: a controller ({@link io.distlock.torture.TortureController}) starts worker JVMs
 * ({@link io.distlock.torture.TortureWorker}) that take the same few locks through the public API, injects faults
 * (kill, pause, disconnect, clock skew) and checks what the workers recorded in the database
 * ({@link io.distlock.torture.TortureChecker}). Run it with {@code scripts/torture.sh}.
 */
@NullMarked
package io.distlock.torture;

import org.jspecify.annotations.NullMarked;

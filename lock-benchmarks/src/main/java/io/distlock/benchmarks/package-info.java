/**
 * JMH benchmarks of distlock against ShedLock, Spring Integration's JdbcLockRegistry, a raw-SQL floor and
 * PostgreSQL advisory locks, the heap and watchdog statements of many held leases, and the handover latency of a
 * released lock against Redisson's; {@link io.distlock.benchmarks.BenchmarkMain} runs them and writes the report.
 */
@NullMarked
package io.distlock.benchmarks;

import org.jspecify.annotations.NullMarked;

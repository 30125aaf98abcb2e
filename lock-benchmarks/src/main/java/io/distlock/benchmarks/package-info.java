/**
 * JMH benchmarks of distlock against ShedLock, Spring Integration's JdbcLockRegistry, a raw-SQL floor and
 * PostgreSQL advisory locks on the databases, of its Redis store against Redisson and Spring Integration's
 * RedisLockRegistry, the heap and watchdog statements of many held leases, the server-side errors of the contended
 * cycle, and the handover latency of a released lock against Redisson's; {@link io.distlock.benchmarks.BenchmarkMain}
 * runs them and writes the report.
 */
@NullMarked
package io.distlock.benchmarks;

import org.jspecify.annotations.NullMarked;

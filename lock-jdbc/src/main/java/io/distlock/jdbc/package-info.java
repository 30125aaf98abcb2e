/**
 * The lock table and the fencing table on plain JDBC. {@link io.distlock.jdbc.JdbcLockRepository} decides every
 * acquire, renewal and release in one statement, on a connection of its own, in autocommit.
 * {@link io.distlock.jdbc.FencingGuard} is the protected resource's side of fencing tokens: it remembers, per
 * protected resource, the highest token it has accepted, and admits a write only when the writer's token is at least
 * that high, in one conditional statement inside the writer's own transaction.
 */
@NullMarked
package io.distlock.jdbc;

import org.jspecify.annotations.NullMarked;

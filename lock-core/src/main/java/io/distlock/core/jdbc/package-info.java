/**
 * The lock repository on plain JDBC: one statement per decision, on its own connection, in autocommit.
 */
@NullMarked
package io.distlock.core.jdbc;

import org.jspecify.annotations.NullMarked;

/**
 * The SQL of each supported database: one small class per product, chosen from the JDBC product name.
 */
@NullMarked
package io.distlock.jdbc.dialect;

import org.jspecify.annotations.NullMarked;

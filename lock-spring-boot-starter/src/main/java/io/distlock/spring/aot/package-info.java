/**
 * Ahead-of-time hints of distributed locks for GraalVM native images, registered in
 * {@code META-INF/spring/aot.factories}.
 */
@NullMarked
package io.distlock.spring.aot;

import org.jspecify.annotations.NullMarked;

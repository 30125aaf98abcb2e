/**
 * The HTTP lock API: seed 000's acquire, read, renew and release over JSON, for processes that are not on the JVM.
 */
@NullMarked
package io.distlock.spring.web;

import org.jspecify.annotations.NullMarked;

/**
 * The HTTP lock API: acquire, read, renew and release over JSON, for processes that are not on the JVM.
 */
@NullMarked
package io.distlock.spring.web;

import org.jspecify.annotations.NullMarked;

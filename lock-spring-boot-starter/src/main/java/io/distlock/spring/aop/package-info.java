/**
 * The Spring AOP machinery behind {@link io.distlock.spring.DistributedLock}: the advisor and its interceptor, the
 * parsed and cached declaration of every guarded method, the resource-name template, and the start-up check of all
 * declarations in a context.
 */
@NullMarked
package io.distlock.spring.aop;

import org.jspecify.annotations.NullMarked;

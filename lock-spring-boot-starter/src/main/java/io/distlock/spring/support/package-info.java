/**
 * What the starter's annotation aspects share: which methods a Spring AOP proxy can reach, whether a bean is advised
 * by an aspect or a class woven, which asynchronous results can be guarded, the advice mode (proxy or AspectJ), the
 * calls a bean makes on itself, and the start-up check that reports every wrong declaration of the context at once.
 * The aspects' packages depend on this one, never on each other.
 */
@NullMarked
package io.distlock.spring.support;

import org.jspecify.annotations.NullMarked;

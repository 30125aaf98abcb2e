/**
 * What the starter's annotation aspects share: which methods a Spring AOP proxy can reach, and whether a bean is
 * advised by an aspect. The aspects' packages depend on this one, never on each other.
 */
@NullMarked
package io.distlock.spring.support;

import org.jspecify.annotations.NullMarked;

/**
 * AspectJ mode of the distributed-lock annotations: the aspect woven into the guarded classes, and its Spring
 * configuration.
 */
@NullMarked
package io.distlock.aspectj;

import org.jspecify.annotations.NullMarked;

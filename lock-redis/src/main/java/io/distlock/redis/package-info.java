/**
 * The lock repository on Redis: every decision is one Lua script run atomically by the server on its own clock,
 * with fencing tokens from a counter per resource that no expiry removes.
 */
@NullMarked
package io.distlock.redis;

import org.jspecify.annotations.NullMarked;

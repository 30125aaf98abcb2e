/**
 * Fenced writes: the protected resource's side of fencing tokens. A {@link io.distlock.core.fencing.FencingGuard}
 * remembers, per protected resource, the highest token it has accepted, and admits a write only when the writer's
 * token is at least that high, in one conditional statement inside the writer's own transaction.
 */
@NullMarked
package io.distlock.core.fencing;

import org.jspecify.annotations.NullMarked;

/**
 * The lock dashboard: an opt-in page served by the application itself that shows the locks held now, the
 * {@code @OncePerSlot} jobs with their recent slots, and the lock events this instance saw, refreshed live;
 * read-only unless its admin mode offers a forced release to users with the admin role.
 */
@NullMarked
package io.distlock.spring.dashboard;

import org.jspecify.annotations.NullMarked;

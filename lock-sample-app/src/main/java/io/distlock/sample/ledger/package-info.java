/**
 * A ledger appended once every five-second slot by one replica, and fenced: a write carrying an older fencing token
 * than the ledger has seen is refused.
 */
@NullMarked
package io.distlock.sample.ledger;

import org.jspecify.annotations.NullMarked;

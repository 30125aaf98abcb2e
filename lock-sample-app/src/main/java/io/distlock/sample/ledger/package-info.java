/**
 * A ledger appended every five seconds by whichever replica holds the ledger lock, and fenced: a write carrying an
 * older fencing token than the ledger has seen is refused.
 */
@NullMarked
package io.distlock.sample.ledger;

import org.jspecify.annotations.NullMarked;

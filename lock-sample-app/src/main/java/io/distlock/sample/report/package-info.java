/**
 * A monthly report, regenerated once every quarter-minute slot on one replica.
 */
@NullMarked
package io.distlock.sample.report;

import org.jspecify.annotations.NullMarked;

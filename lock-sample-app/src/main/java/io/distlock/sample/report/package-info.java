/**
 * A monthly report, regenerated every quarter minute on whichever replica gets the month's lock.
 */
@NullMarked
package io.distlock.sample.report;

import org.jspecify.annotations.NullMarked;

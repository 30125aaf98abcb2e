package io.distlock.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How this replica's scheduler runs.
 *
 * @param schedulerClockOffset how far the clock the scheduler fires by is ahead of the system clock ({@code PT3S}) or
 *     behind it ({@code -PT3S}): a replica whose clock is skewed, without touching the machine's clock. The lock
 *     leases are unaffected: their expiry is decided by the database's clock.
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue("PT0S") Duration schedulerClockOffset) {
}

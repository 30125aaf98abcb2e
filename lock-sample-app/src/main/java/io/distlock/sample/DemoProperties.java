package io.distlock.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample service.
 *
 * @param replica this replica's name, printed in every line and used as the owner-token prefix
 * @param ledgerWork how long one ledger job's work takes while it holds the lock
 * @param reportWork how long one report takes while it holds the lock
 * @param tickWork how long one run of the two tick jobs takes
 */
@ConfigurationProperties("demo")
public record DemoProperties(@DefaultValue("replica") String replica, @DefaultValue("1500ms") Duration ledgerWork,
        @DefaultValue("500ms") Duration reportWork, @DefaultValue("200ms") Duration tickWork) {
}

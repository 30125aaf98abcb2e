package io.distlock.spring.properties;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Start-up checks of the {@code distributed-lock.*} configuration, whichever lock store is configured: keys that no
 * properties class binds and durations without a unit fail the start before any bean is created.
 */
@AutoConfiguration
public final class DistributedLockPropertiesAutoConfiguration {

    @Bean
    static LockPropertiesValidator lockPropertiesValidator(Environment environment) {
        return new LockPropertiesValidator(environment);
    }
}

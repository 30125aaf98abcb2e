package io.distlock.spring.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigureOrder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.Ordered;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Fails the start when the application's Spring Boot is not the generation this starter is built for, before any
 * other distlock auto-configuration is read: on another generation their conditions can quietly skip every lock bean,
 * and {@code @DistributedLock} methods would run unguarded. Contributes no bean.
 */
@AutoConfiguration
@AutoConfigureOrder(Ordered.HIGHEST_PRECEDENCE)
@Conditional(SpringBootGenerationAutoConfiguration.SupportedGeneration.class)
public final class SpringBootGenerationAutoConfiguration {

    /**
     * Whether a Spring Boot version is of this starter's generation; {@code null} (no version known) passes.
     *
     * @param bootVersion the version, such as {@code 4.0.7}
     * @return whether this starter runs on it
     */
    static boolean supports(@Nullable String bootVersion) {
        if (bootVersion == null) {
            return true;
        }
        String[] parts = bootVersion.split("[.-]", 3);
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major == SupportedSpringBoot.MAJOR && minor >= SupportedSpringBoot.LOWEST_MINOR;
        }
        catch (NumberFormatException ex) {
            return false;
        }
    }

    /**
     * Throws {@link UnsupportedSpringBootException} on another generation; matches otherwise.
     */
    static final class SupportedGeneration implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String bootVersion = SpringBootVersion.getVersion();
            if (!supports(bootVersion)) {
                throw new UnsupportedSpringBootException(bootVersion);
            }
            return true;
        }
    }
}

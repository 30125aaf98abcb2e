package io.distlock.spring.actuate;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless {@code management.health.distributedlock.enabled=false} or, when that is not set,
 * {@code management.health.defaults.enabled=false}: Spring Boot's rule for a health indicator, whose own condition
 * annotation lives in another package on each Spring Boot generation.
 */
public final class OnEnabledLockHealthIndicatorCondition extends SpringBootCondition {

    private static final String ENABLED = "management.health.distributedlock.enabled";

    private static final String DEFAULTS = "management.health.defaults.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        ConditionMessage.Builder message = ConditionMessage.forCondition("distributedLock health indicator");
        Environment environment = context.getEnvironment();
        String decidedBy = environment.containsProperty(ENABLED) ? ENABLED : DEFAULTS;
        boolean enabled = environment.getProperty(decidedBy, Boolean.class, true);
        return enabled ? ConditionOutcome.match(message.because(decidedBy + " is true"))
                : ConditionOutcome.noMatch(message.because(decidedBy + " is false"));
    }
}

package io.distlock.spring.properties;

import java.time.Duration;

import io.distlock.spring.support.DurationText;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;

/**
 * Refuses, in the binding of every {@code distributed-lock.*} properties class, a duration written as a number without
 * a unit, which Spring Boot would read as milliseconds ({@code default-ttl=30}: a 30 ms lease). The binding fails
 * naming the property, the value and where it came from, whatever configuration metadata is on the class path: the
 * check of {@link LockPropertiesValidator}, which lists every mistake before any bean is created, needs the metadata;
 * this one needs only the type being bound. Other prefixes are left alone.
 */
final class UnitlessDurationBindHandlerAdvisor implements ConfigurationPropertiesBindHandlerAdvisor {

    private final Environment environment;

    UnitlessDurationBindHandlerAdvisor(Environment environment) {
        this.environment = environment;
    }

    @Override
    public BindHandler apply(BindHandler bindHandler) {
        return new AbstractBindHandler(bindHandler) {

            @Override
            public @Nullable Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
                    Object result) {
                ConfigurationProperty property = context.getConfigurationProperty();
                if (result instanceof Duration && property != null && LockPropertyMetadata.PREFIX.isAncestorOf(name)) {
                    String value = resolved(property.getValue());
                    if (value != null && DurationText.lacksUnit(value)) {
                        throw new IllegalArgumentException(
                                LockPropertiesValidator.unitlessMessage(name, value, property));
                    }
                }
                return super.onSuccess(name, target, context, result);
            }
        };
    }

    private @Nullable String resolved(@Nullable Object value) {
        if (value == null) {
            return null;
        }
        Object resolved = new PropertySourcesPlaceholdersResolver(environment).resolvePlaceholders(value);
        return resolved != null ? resolved.toString() : null;
    }
}

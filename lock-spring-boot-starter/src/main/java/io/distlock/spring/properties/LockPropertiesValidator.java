package io.distlock.spring.properties;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.distlock.spring.support.DurationText;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.Environment;

/**
 * Checks the {@code distributed-lock.*} configuration before any bean is created: a key that no properties class
 * binds fails the start naming the key and the nearest known one (or is logged at WARN with
 * {@code distributed-lock.strict-properties=false}), and a duration property without a unit fails the start instead
 * of being read as milliseconds, and every value out of its range ({@link LockPropertyRanges}) is told in the same
 * failure. The known keys and the duration properties come from the configuration metadata on
 * the class path; without it, the binding still refuses durations without a unit
 * ({@link UnitlessDurationBindHandlerAdvisor}). Keys are read from every property source that can list its names; environment variables cannot be
 * mapped back to one key and are not checked for typos, but their durations are.
 */
final class LockPropertiesValidator implements BeanFactoryPostProcessor {

    private static final Logger logger = LoggerFactory.getLogger(LockPropertiesValidator.class);

    static final String STRICT = "distributed-lock.strict-properties";

    private final Environment environment;

    LockPropertiesValidator(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        check(beanFactory.getBeanClassLoader());
    }

    /**
     * Checks the environment's {@code distributed-lock.*} keys.
     *
     * @param classLoader where the configuration metadata is read from
     * @throws InvalidLockPropertiesException listing every problem
     */
    void check(@Nullable ClassLoader classLoader) {
        Map<ConfigurationPropertyName, ConfigurationProperty> keys = configuredKeys();
        List<String> unitless = new ArrayList<>();
        List<ConfigurationPropertyName> unitlessNames = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        LockPropertyMetadata metadata = LockPropertyMetadata.load(classLoader);
        for (ConfigurationPropertyName duration : metadata.isAvailable() ? metadata.durations()
                : List.<ConfigurationPropertyName>of()) {
            ConfigurationProperty property = find(duration);
            String value = property != null ? resolved(property.getValue()) : null;
            if (value != null && DurationText.lacksUnit(value)) {
                unitless.add(unitlessMessage(duration, value, property));
                unitlessNames.add(duration);
            }
        }
        List<String> outOfRange = LockPropertyRanges.check(Binder.get(environment), this::described, unitlessNames);
        if (!metadata.isAvailable()) {
            if (!keys.isEmpty()) {
                logger.warn("Cannot check the distributed-lock.* properties: no configuration metadata declares {} "
                        + "(META-INF/spring-configuration-metadata.json of lock-spring-boot-starter is missing from "
                        + "the class path)", LockPropertyMetadata.OWN_KEY);
            }
            if (!outOfRange.isEmpty()) {
                throw new InvalidLockPropertiesException(List.of(), List.of(), outOfRange);
            }
            return;
        }
        for (ConfigurationProperty property : keys.values()) {
            if (!metadata.isKnown(property.getName())) {
                unknown.add(unknown(property, metadata));
            }
        }
        if (!unknown.isEmpty() && !isStrict()) {
            logger.warn("Ignoring {} unknown distributed-lock {} ({}=false):\n - {}", unknown.size(),
                    unknown.size() == 1 ? "key" : "keys", STRICT, String.join("\n - ", unknown));
            unknown.clear();
        }
        if (!unknown.isEmpty() || !unitless.isEmpty() || !outOfRange.isEmpty()) {
            throw new InvalidLockPropertiesException(unknown, unitless, outOfRange);
        }
    }

    /** A property named with its value and where it came from: {@code distributed-lock.max-hold = '-1s' (from …)}. */
    private String described(ConfigurationPropertyName name) {
        ConfigurationProperty property = find(name);
        return name + " = '" + (property != null ? resolved(property.getValue()) : "") + "'" + origin(property);
    }

    /**
     * Says that a duration property has no unit, naming the property, its value and where it came from.
     *
     * @param name the property
     * @param value its value, placeholders resolved
     * @param property where it came from
     * @return the message
     */
    static String unitlessMessage(ConfigurationPropertyName name, String value,
            @Nullable ConfigurationProperty property) {
        return name + " = '" + value + "'" + origin(property) + " has no unit: a number alone is not read as "
                + "milliseconds; use " + DurationText.FORMS;
    }

    private static String unknown(ConfigurationProperty property, LockPropertyMetadata metadata) {
        ConfigurationPropertyName name = property.getName();
        StringBuilder message = new StringBuilder().append(name).append(origin(property))
            .append(" is not a distributed-lock property");
        ConfigurationPropertyName nearest = metadata.nearest(name);
        if (nearest != null) {
            message.append("; did you mean ").append(nearest).append('?');
        }
        else {
            ConfigurationPropertyName group = name.getParent();
            List<String> siblings = group.equals(LockPropertyMetadata.PREFIX) ? List.of() : metadata.keysOf(group);
            if (!siblings.isEmpty()) {
                message.append("; ").append(group).append(" has ").append(String.join(", ", siblings));
            }
        }
        return message.toString();
    }

    private boolean isStrict() {
        return Binder.get(environment).bind(STRICT, Boolean.class).orElse(true);
    }

    /** Every key under {@code distributed-lock}, once, with the property of the source that wins. */
    private Map<ConfigurationPropertyName, ConfigurationProperty> configuredKeys() {
        Map<ConfigurationPropertyName, ConfigurationProperty> keys = new LinkedHashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                iterable.stream().filter(LockPropertyMetadata.PREFIX::isAncestorOf).forEach(name -> {
                    ConfigurationProperty property = iterable.getConfigurationProperty(name);
                    if (property != null) {
                        keys.putIfAbsent(name, property);
                    }
                });
            }
        }
        return keys;
    }

    private @Nullable ConfigurationProperty find(ConfigurationPropertyName name) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty property = source.getConfigurationProperty(name);
            if (property != null) {
                return property;
            }
        }
        return null;
    }

    private @Nullable String resolved(@Nullable Object value) {
        if (value == null) {
            return null;
        }
        try {
            Object resolved = new PropertySourcesPlaceholdersResolver(environment).resolvePlaceholders(value);
            return resolved != null ? resolved.toString() : null;
        }
        catch (IllegalArgumentException ex) {
            return null; // an unresolvable placeholder fails the binding itself, with Boot's message
        }
    }

    /** Where a value comes from: a file and line, an environment variable, or at least the property source. */
    private static String origin(@Nullable ConfigurationProperty property) {
        Origin origin = property != null ? property.getOrigin() : null;
        if (origin == null) {
            return "";
        }
        if (origin instanceof PropertySourceOrigin source) {
            if (source.getOrigin() != null) {
                return " (from " + source.getOrigin() + ")";
            }
            if (source.getPropertyName().equals(property.getName().toString())) {
                return " (from property source \"" + source.getPropertySource().getName() + "\")";
            }
        }
        return " (from " + origin + ")";
    }
}

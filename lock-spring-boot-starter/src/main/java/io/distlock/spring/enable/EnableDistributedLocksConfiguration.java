package io.distlock.spring.enable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.distlock.core.LeaseLostListener;
import io.distlock.core.LockArguments;
import io.distlock.core.LockManager;
import io.distlock.core.LockObserver;
import io.distlock.core.LockRepository;
import io.distlock.core.LockRequest;
import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.spring.EnableDistributedLocks;
import io.distlock.spring.autoconfigure.DistributedLockProperties;
import io.distlock.spring.support.DurationText;
import io.distlock.spring.support.InvalidLockDeclarationException;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportAware;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The lock store of {@link EnableDistributedLocks}: its settings, taken from the annotation's attributes, a lock
 * repository on the context's {@link DataSource} and a lock manager, the last two unless the application defines
 * them. Public only so that {@code @EnableDistributedLocks} can import it by name.
 */
@Configuration(proxyBeanMethods = false)
public final class EnableDistributedLocksConfiguration implements ImportAware, EnvironmentAware {

    /**
     * The name Spring Boot gives the bound properties bean, so that an application that also uses Boot's
     * auto-configuration gets one bean, bound from its {@code distributed-lock.*} properties.
     */
    static final String PROPERTIES_BEAN = "distributed-lock-"
            + "io.distlock.spring.autoconfigure.DistributedLockProperties";

    private @Nullable Map<String, @Nullable Object> attributes;

    private @Nullable Environment environment;

    @Override
    public void setImportMetadata(AnnotationMetadata importMetadata) {
        this.attributes = importMetadata.getAnnotationAttributes(EnableDistributedLocks.class.getName());
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Bean(PROPERTIES_BEAN)
    @ConditionalOnMissingBean
    DistributedLockProperties distributedLockProperties() {
        List<String> problems = new ArrayList<>();
        DistributedLockProperties properties = new DistributedLockProperties();
        properties.setTableName(text("tableName", properties.getTableName()));
        properties.setDefaultTtl(duration("defaultTtl", properties.getDefaultTtl(), problems));
        properties.setMaxHold(duration("maxHold", properties.getMaxHold(), problems));
        properties.setMaxTtl(duration("maxTtl", properties.getMaxTtl(), problems));
        if (problems.isEmpty()) {
            within("maxTtl", properties.getMaxTtl(), LockRequest.MAX_DURATION, problems);
            within("defaultTtl", properties.getDefaultTtl(), properties.getMaxTtl(), problems);
            within("maxHold", properties.getMaxHold(), LockRequest.MAX_DURATION, problems);
        }
        if (!problems.isEmpty()) {
            throw new InvalidLockDeclarationException(problems);
        }
        return properties;
    }

    @Bean
    @ConditionalOnMissingBean(LockRepository.class)
    JdbcLockRepository lockRepository(DataSource dataSource, DistributedLockProperties properties) {
        return JdbcLockRepository.builder(dataSource)
            .tableName(properties.getTableName())
            .timeSource(properties.getTimeSource())
            .maxTtl(properties.getMaxTtl())
            .build();
    }

    @Bean
    @ConditionalOnMissingBean
    LockManager lockManager(LockRepository lockRepository, ObjectProvider<LeaseLostListener> lostListeners,
            ObjectProvider<LockObserver> observers, ObjectProvider<ObservationRegistry> observationRegistry) {
        LockManager.Builder builder = LockManager.builder(lockRepository);
        observationRegistry.ifAvailable(builder::observationRegistry);
        lostListeners.orderedStream().forEach(builder::lostListener);
        observers.orderedStream().forEach(builder::observer);
        return builder.build();
    }

    private static void within(String attribute, Duration value, Duration max, List<String> problems) {
        try {
            LockArguments.requireDuration("@EnableDistributedLocks attribute '" + attribute + "'", value,
                    LockArguments.MIN_TTL, max);
        }
        catch (IllegalArgumentException ex) {
            problems.add(ex.getMessage());
        }
    }

    private String text(String attribute, String fallback) {
        Object value = attributes != null ? attributes.get(attribute) : null;
        if (!(value instanceof String declared) || declared.isBlank()) {
            return fallback;
        }
        return environment != null ? environment.resolveRequiredPlaceholders(declared).strip() : declared.strip();
    }

    private Duration duration(String attribute, Duration fallback, List<String> problems) {
        String declared = attributes != null && attributes.get(attribute) instanceof String text ? text : "";
        String value = text(attribute, "");
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            return DurationText.parse(value);
        }
        catch (IllegalArgumentException ex) {
            problems.add("@EnableDistributedLocks attribute '" + attribute + "' = '" + declared + "' "
                    + (value.equals(declared.strip()) ? "" : "(resolved '" + value + "') ") + ex.getMessage());
            return fallback;
        }
    }
}

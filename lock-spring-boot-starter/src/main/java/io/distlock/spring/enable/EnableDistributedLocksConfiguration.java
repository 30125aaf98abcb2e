package io.distlock.spring.enable;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

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
import io.distlock.spring.support.DeclaredAttributes;
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
        DeclaredAttributes problems = new DeclaredAttributes("@EnableDistributedLocks ",
                environment != null ? environment::resolveRequiredPlaceholders : null);
        DistributedLockProperties properties = new DistributedLockProperties();
        String tableName = problems.text("tableName", declared("tableName"));
        if (tableName != null && !tableName.isBlank()) {
            properties.setTableName(tableName.strip());
        }
        Duration maxTtl = problems.within("maxTtl", declared("maxTtl"),
                problems.duration("maxTtl", declared("maxTtl"), properties.getMaxTtl()), LockArguments.MIN_TTL,
                LockRequest.MAX_DURATION, "10 years");
        Duration defaultTtl = problems.within("defaultTtl", declared("defaultTtl"),
                problems.duration("defaultTtl", declared("defaultTtl"), properties.getDefaultTtl()),
                LockArguments.MIN_TTL, maxTtl != null ? maxTtl : LockRequest.MAX_DURATION, "maxTtl");
        Duration maxHold = problems.within("maxHold", declared("maxHold"),
                problems.duration("maxHold", declared("maxHold"), properties.getMaxHold()), LockArguments.MIN_TTL,
                LockRequest.MAX_DURATION, "10 years");
        problems.throwIfAny();
        properties.setMaxTtl(Objects.requireNonNull(maxTtl));
        properties.setDefaultTtl(Objects.requireNonNull(defaultTtl));
        properties.setMaxHold(Objects.requireNonNull(maxHold));
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

    /** An attribute of the annotation as declared: empty when unset. */
    private String declared(String attribute) {
        Object value = attributes != null ? attributes.get(attribute) : null;
        return value instanceof String text ? text : "";
    }
}

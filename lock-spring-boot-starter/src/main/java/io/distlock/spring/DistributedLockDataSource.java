package io.distlock.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Marks the {@code DataSource} that holds the lock table when it is not the application's main one, as Spring
 * Boot's {@code @QuartzDataSource} does for Quartz: the lock repository, the lock table's initialisation, the start-up
 * checks, the health indicator, the HTTP API and the clean-up then use it, and the application's other data sources
 * are left alone. Put it on the {@code @Bean} method of that data source (keep the application's own one
 * {@code @Primary}, so that the rest of Spring Boot still finds it).
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface DistributedLockDataSource {
}

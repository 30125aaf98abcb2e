package io.distlock.aspectj.tests;

import java.time.Duration;

import javax.sql.DataSource;

import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.spring.EnableDistributedLocks;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring without Spring Boot: {@code @EnableDistributedLocks(mode = AdviceMode.ASPECTJ)} configures the woven aspect,
 * and a call the bean makes on itself takes the lock, with no proxy.
 */
class EnableDistributedLocksAspectJModeTests {

    @Test
    void theAnnotationsAspectJModeGuardsACallTheBeanMakesOnItself() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(LockConfig.class)) {
            AspectJModeTests.Reports reports = context.getBean(AspectJModeTests.Reports.class);
            assertThat(AopUtils.isAopProxy(reports)).isFalse();
            assertThat(reports.nightly()).isEqualTo("report:2026-05");
            Lease held = context.getBean(LockManager.class).tryAcquire("report:2026-05", Duration.ofSeconds(30))
                    .orElseThrow();
            try {
                assertThat(reports.nightly()).as("skipped while held elsewhere").isNull();
            }
            finally {
                held.release();
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableDistributedLocks(mode = AdviceMode.ASPECTJ)
    static class LockConfig {

        @Bean
        DataSource dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true)
                    .addScript("classpath:io/distlock/jdbc/dialect/schema-h2.sql").build();
        }

        @Bean
        AspectJModeTests.Reports reports() {
            return new AspectJModeTests.Reports();
        }
    }
}

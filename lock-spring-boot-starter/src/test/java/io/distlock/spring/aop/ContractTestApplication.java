package io.distlock.spring.aop;

import javax.sql.DataSource;

import io.distlock.core.LockManager;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.testsupport.CountingDataSource;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The application the contract tests run: the starter's auto-configuration with transactions and AOP, on a data
 * source the test supplies, with the guarded beans.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ PropertyPlaceholderAutoConfiguration.class, AopAutoConfiguration.class,
        DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
        DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class })
class ContractTestApplication {

    @Bean
    NestedJobs nestedJobs() {
        return new NestedJobs();
    }

    @Bean
    GuardedJobs guardedJobs(LockManager lockManager, NestedJobs nestedJobs, CountingDataSource dataSource) {
        return new GuardedJobs(lockManager, nestedJobs, dataSource);
    }

    @Bean
    GuardedJobs.LockNames lockNames() {
        return new GuardedJobs.LockNames();
    }

    @Bean
    GuardedJobs.LostLeases lostLeases() {
        return new GuardedJobs.LostLeases();
    }

    /**
     * Starts an application on a data source, counted so that tests can prove how many statements ran. The counting
     * wrapper is not closeable, so closing the context leaves the shared pool open.
     *
     * @param dataSource the database
     * @param properties extra {@code key=value} properties
     * @return the running context
     */
    static ConfigurableApplicationContext start(DataSource dataSource, String... properties) {
        CountingDataSource counting = new CountingDataSource(dataSource);
        return new SpringApplicationBuilder(ContractTestApplication.class)
            .web(WebApplicationType.NONE)
            .bannerMode(Banner.Mode.OFF)
            .logStartupInfo(false)
            .initializers(context -> ((GenericApplicationContext) context).registerBean("dataSource",
                    CountingDataSource.class, () -> counting))
            .properties(properties)
            .run();
    }
}

package io.distlock.spring.redis;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.distlock.core.LockManager;
import io.distlock.core.SlotExecution;
import io.distlock.core.SlotStore;
import io.distlock.redis.RedisLockRepository;
import io.distlock.redis.testsupport.TestRedis;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.properties.DistributedLockPropertiesAutoConfiguration;
import io.distlock.spring.slot.DistributedLockSlotAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A service on Redis alone, which leaves spring-boot-starter-jdbc (and so Spring's JDBC and Spring Boot's SQL
 * initialisation) off its class path, starts and runs its {@code @OncePerSlot} jobs on Redis: the JDBC store backs
 * off, and nothing of the starter reaches a JDBC class. Shown with a filtering class loader, and with a real
 * application in a class loader whose class path lacks those jars.
 */
class RedisWithoutJdbcTests {

    /** What spring-boot-starter-jdbc brings, and the JDBC drivers: none of it is on a Redis-only class path. */
    private static final List<String> JDBC_JARS = List.of("spring-jdbc-", "spring-boot-jdbc-", "spring-boot-sql-",
            "spring-boot-starter-jdbc-", "HikariCP-", "h2-", "postgresql-", "mariadb-java-client-");

    static final Set<String> slotsRun = ConcurrentHashMap.newKeySet();

    @Test
    void withoutSpringJdbcOrBootsSqlInitialisationTheStarterStartsOnRedisAndBacksOffTheJdbcStore() {
        TestRedis.assumeAvailable();
        new ApplicationContextRunner()
            .withClassLoader(new FilteredClassLoader("org.springframework.jdbc", "org.springframework.boot.jdbc",
                    "org.springframework.boot.sql", "com.zaxxer.hikari"))
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    DistributedLockRedisAutoConfiguration.class, DistributedLockJdbcAutoConfiguration.class,
                    DistributedLockAutoConfiguration.class, DistributedLockSlotAutoConfiguration.class,
                    DistributedLockPropertiesAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + TestRedis.host(),
                    "spring.data.redis.port=" + TestRedis.port(),
                    "distributed-lock.redis.key-prefix=" + TestRedis.newPrefix(), "test.job=filtered")
            .withUserConfiguration(Service.class)
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(RedisLockRepository.class)
                    .hasSingleBean(LockManager.class);
                assertThat(context.getBeanNamesForType(io.distlock.jdbc.JdbcLockRepository.class)).isEmpty();
            });
    }

    @Test
    void aServiceWhoseClassPathLacksSpringJdbcRunsItsOncePerSlotJobsOnRedis() throws Exception {
        TestRedis.assumeAvailable();
        List<URL> urls = new ArrayList<>();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String entry : classPath.split(File.pathSeparator)) {
            String name = new File(entry).getName();
            if (JDBC_JARS.stream().noneMatch(name::startsWith)) {
                urls.add(new File(entry).toURI().toURL());
            }
        }
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader redisOnly = new URLClassLoader(urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            assertThat(redisOnly.getResource("org/springframework/jdbc/core/JdbcTemplate.class"))
                    .as("Spring's JDBC on the service's class path").isNull();
            Thread.currentThread().setContextClassLoader(redisOnly);
            Method run = redisOnly.loadClass(Service.class.getName()).getMethod("runUntilSlotsRan", String.class,
                    int.class, String.class, String.class);
            String job = "redis-only-" + java.util.UUID.randomUUID();
            Object slots = run.invoke(null, TestRedis.host(), TestRedis.port(), TestRedis.newPrefix(), job);
            assertThat((Integer) slots).as("slots the service ran and Redis's slot history records")
                    .isGreaterThanOrEqualTo(3);
        }
        finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /** A service on Redis with an {@code @OncePerSlot} job every 200 ms, started with every auto-configuration. */
    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    public static class Service {

        @Bean
        Job job() {
            return new Job();
        }

        /**
         * Runs the service until its job ran three slots, in the class loader this class was loaded by.
         *
         * @return how many of the slots it ran Redis's slot history records
         */
        public static int runUntilSlotsRan(String host, int port, String prefix, String job) {
            try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Service.class,
                    AllAutoConfigurations.class).web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties("spring.data.redis.host=" + host, "spring.data.redis.port=" + port,
                        "distributed-lock.redis.key-prefix=" + prefix, "test.job=" + job)
                .run()) {
                await().atMost(Duration.ofSeconds(30)).until(() -> slotsRun.size() >= 3);
                LockManager manager = context.getBean(LockManager.class);
                return (int) SlotStore.of(manager.repository()).recentSlotRuns(job, 50).stream()
                        .filter(run -> slotsRun.contains(run.slot().toString())).count();
            }
        }
    }

    /** Every auto-configuration on the class path, as a Spring Boot application has them. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class AllAutoConfigurations {
    }

    /** A job every 200 ms. */
    public static class Job {

        @Scheduled(fixedRate = 200)
        @OncePerSlot(job = "${test.job}", ttl = "PT10S")
        public void run() {
            slotsRun.add(SlotExecution.current().orElseThrow().slot().toString());
        }
    }
}

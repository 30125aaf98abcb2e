package io.distlock.dashboard.browser;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.distlock.core.LockManager;
import io.distlock.core.LockRequest;
import io.distlock.spring.OncePerSlot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.stereotype.Component;

/**
 * The application the browser looks at: a {@code @OncePerSlot} job every two seconds, work that holds a lock for as
 * long as a test says, and Spring Security in front — everyone may read, or (with {@code test.admin=true}) a login
 * form with an admin and a viewer.
 */
@SpringBootApplication
@EnableScheduling
public class DashboardTestApplication {

    /** The slot job's name. */
    static final String TICK = "tick";

    static ConfigurableApplicationContext start(H2Store store, String... properties) {
        List<String> all = new java.util.ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
                "spring.datasource.url=" + store.url(), "spring.datasource.username=sa",
                "spring.datasource.hikari.connection-timeout=2000", "spring.datasource.hikari.validation-timeout=1000",
                "distributed-lock.jdbc.initialize-schema=always", "distributed-lock.owner-prefix=replica-1",
                "distributed-lock.dashboard.enabled=true", "distributed-lock.dashboard.refresh-interval=500ms",
                "spring.main.banner-mode=off", "logging.level.root=WARN", "logging.level.io.distlock=INFO"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(DashboardTestApplication.class)
            .properties(all.toArray(String[]::new)).run();
    }

    static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getProperty("local.server.port", "0"));
    }

    public static void main(String[] args) {
        SpringApplication.run(DashboardTestApplication.class, args);
    }

    /** The slot job: quick work every two seconds of the epoch. */
    @Component
    public static class Tick {

        @Scheduled(fixedRate = 2000)
        @OncePerSlot(job = TICK, ttl = "3s")
        public void tick() {
        }
    }

    /** Work that holds a lock, kept alive by the watchdog, until a test lets it go; it records why it lost one. */
    @Component
    public static class HeldWork implements AutoCloseable {

        private final LockManager locks;

        private final ExecutorService threads = Executors.newCachedThreadPool();

        private final Map<String, CountDownLatch> running = new ConcurrentHashMap<>();

        private final List<String> losses = new CopyOnWriteArrayList<>();

        public HeldWork(LockManager locks) {
            this.locks = locks;
        }

        /**
         * Starts work holding the lock on a resource.
         *
         * @param resource the resource
         * @return a latch counted down once the lock is held
         */
        CountDownLatch hold(String resource) {
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            running.put(resource, done);
            threads.submit(() -> locks.runLocked(LockRequest.of(resource, Duration.ofSeconds(3)), lease -> {
                lease.onLost((lost, reason) -> losses.add(resource + ": " + reason));
                held.countDown();
                return done.await(5, TimeUnit.MINUTES);
            }));
            return held;
        }

        /** Ends the work on a resource, which releases its lock. */
        void finish(String resource) {
            CountDownLatch done = running.remove(resource);
            if (done != null) {
                done.countDown();
            }
        }

        List<String> losses() {
            return losses;
        }

        @Override
        public void close() {
            running.values().forEach(CountDownLatch::countDown);
            threads.shutdownNow();
        }
    }

    /** Everyone may read the dashboard; CSRF protection stays on, as by default. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "test.admin", havingValue = false, matchIfMissing = true)
    static class OpenSecurity {

        @Bean
        SecurityFilterChain open(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll()).build();
        }
    }

    /** A login form; {@code admin} has the dashboard's admin role, {@code viewer} another one. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty("test.admin")
    static class LoginSecurity {

        @Bean
        SecurityFilterChain login(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests(requests -> requests.requestMatchers("/distlock/**").authenticated()
                    .anyRequest().permitAll())
                .formLogin(Customizer.withDefaults()).build();
        }

        @Bean
        UserDetailsService users() {
            return new InMemoryUserDetailsManager(
                    User.withUsername("admin").password("{noop}admin-secret").roles("DISTLOCK_ADMIN").build(),
                    User.withUsername("viewer").password("{noop}viewer-secret").roles("VIEWER").build());
        }
    }
}

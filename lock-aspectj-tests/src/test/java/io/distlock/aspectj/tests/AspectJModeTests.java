package io.distlock.aspectj.tests;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Optional;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.core.LockRepository;
import io.distlock.core.SlotExecution;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import io.distlock.spring.LockNotAcquiredException;
import io.distlock.spring.OnLocked;
import io.distlock.spring.OncePerSlot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Mono;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An application in AspectJ mode, its classes woven at compile time with lock-aspectj: a call a bean makes on itself
 * ({@code this.generate(…)}), a private method and a final method take their lock — refused while another owner
 * holds it, with the lease bound inside when they run — and the bean is not proxied at all; a woven
 * {@code @Scheduled @OncePerSlot} job runs through the slot aspect.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AspectJModeTests {

    private ConfigurableApplicationContext context;

    private Reports reports;

    private LockManager otherReplica;

    @BeforeAll
    void start() {
        context = new SpringApplicationBuilder(WovenApplication.class).web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties("distributed-lock.mode=aspectj", "spring.datasource.url=jdbc:h2:mem:aspectj;DB_CLOSE_DELAY=-1")
                .run();
        reports = context.getBean(Reports.class);
        otherReplica = LockManager.builder(context.getBean(LockRepository.class)).verifySchema(false).build();
    }

    @AfterAll
    void stop() {
        otherReplica.close();
        context.close();
    }

    private <T> T whileHeldElsewhere(String resource, java.util.function.Supplier<T> call) {
        Lease held = otherReplica.tryAcquire(resource, Duration.ofSeconds(30)).orElseThrow();
        try {
            return call.get();
        }
        finally {
            held.release();
        }
    }

    @Test
    void theBeanIsNotProxied() {
        assertThat(AopUtils.isAopProxy(reports)).isFalse();
    }

    @Test
    void aCallTheBeanMakesOnItselfTakesTheLock() {
        assertThat(reports.nightly()).as("run under its own lease").isEqualTo("report:2026-05");
        assertThat(whileHeldElsewhere("report:2026-05", reports::nightly)).as("skipped while held elsewhere")
                .isNull();
    }

    @Test
    void aPrivateMethodTakesTheLock() {
        assertThat(reports.callsPrivate()).isEqualTo("private");
        assertThat(whileHeldElsewhere("private", reports::callsPrivate)).isNull();
    }

    @Test
    void aFinalMethodTakesTheLock() {
        assertThat(reports.sealed()).isEqualTo("final");
        assertThatThrownBy(() -> whileHeldElsewhere("final", reports::sealed))
                .isInstanceOf(LockNotAcquiredException.class).hasMessageContaining("final");
    }

    @Test
    void aComposedAnnotationCarryingTheLockIsWovenAndTakesTheLock() {
        assertThat(reports.callsComposed()).isEqualTo("composed");
        assertThat(whileHeldElsewhere("composed", reports::callsComposed)).isNull();
    }

    @Test
    void aMonoTheBeanSubscribesToOnItselfHoldsTheLockUntilItCompletes() {
        assertThat(reports.monoOnItself().block(Duration.ofSeconds(10))).startsWith("mono under token ");
        assertThat(whileHeldElsewhere("mono", () -> reports.monoOnItself().blockOptional(Duration.ofSeconds(10))))
                .isEqualTo(Optional.empty());
    }

    @Test
    void aScheduledJobRunsThroughTheWovenOncePerSlotAspect() {
        await().atMost(Duration.ofSeconds(20)).until(() -> EverySecond.slots.stream().distinct().count() >= 2);
        assertThat(EverySecond.slots).as("each slot once: one replica, and the slot bound inside")
                .doesNotHaveDuplicates();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableScheduling
    static class WovenApplication {

        @Bean
        Reports reports() {
            return new Reports();
        }

        @Bean
        EverySecond everySecond() {
            return new EverySecond();
        }
    }

    /** An application's own annotation that carries the lock as a meta-annotation. */
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @java.lang.annotation.Target(java.lang.annotation.ElementType.METHOD)
    @DistributedLock(resource = "composed")
    @interface ComposedLock {
    }

    /** A woven scheduled job, claimed once per slot. */
    public static class EverySecond {

        static final List<Instant> slots = new CopyOnWriteArrayList<>();

        @Scheduled(cron = "* * * * * *", zone = "UTC")
        @OncePerSlot(job = "aspectj-every-second", ttl = "PT10S")
        public void run() {
            slots.add(SlotExecution.current().orElseThrow().slot());
        }
    }

    /** A bean that calls its guarded methods itself, which only a woven aspect can see. */
    public static class Reports {

        @DistributedLock(resource = "report:#{#month}")
        public String generate(String month) {
            return CurrentLease.require().resource();
        }

        public String nightly() {
            return generate("2026-05");
        }

        @DistributedLock(resource = "private")
        private String secret() {
            return CurrentLease.require().resource();
        }

        public String callsPrivate() {
            return secret();
        }

        @DistributedLock(resource = "final", onLocked = OnLocked.THROW)
        public final String sealed() {
            return CurrentLease.require().resource();
        }

        @ComposedLock
        String composed() {
            return CurrentLease.require().resource();
        }

        public String callsComposed() {
            return composed();
        }

        @DistributedLock(resource = "mono")
        public Mono<String> mono() {
            return LockContext.lease().map(lease -> "mono under token " + lease.token());
        }

        public Mono<String> monoOnItself() {
            return mono();
        }
    }
}

package io.distlock.spring.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.core.LockManager;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How the values of a resource template become the locked name on each call: arrays, collections and maps by their
 * elements, so that equal arguments lock the same name, and never Object's identity form, which would lock a name of
 * its own on every call. Independent of the database, so on embedded H2 only.
 */
class ResourceTemplateTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
                DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=jdbc:h2:mem:templates-" + UUID.randomUUID())
        .withBean(Templates.class)
        .withBean("plainBean", Plain.class);

    @Test
    void argumentsRenderAsTheirElements() {
        runner.run(context -> {
            Templates templates = context.getBean(Templates.class);
            assertThat(templates.byArgs("eu", 7)).isEqualTo("job:[eu, 7]");
            assertThat(templates.byArray(new String[] { "a", "b" })).isEqualTo("job:[a, b]");
            assertThat(templates.byGrid(new int[][] { { 1, 2 }, { 3 } })).isEqualTo("job:[[1, 2], [3]]");
            assertThat(templates.byList(List.of("x", "y"))).isEqualTo("job:[x, y]");
            Map<String, List<String>> regions = new LinkedHashMap<>();
            regions.put("eu", List.of("de", "fr"));
            regions.put("us", List.of());
            assertThat(templates.byMap(regions)).isEqualTo("job:{eu=[de, fr], us=[]}");
        });
    }

    @Test
    void plainParameterReferencesReadTheArgumentsAsSpelWould() {
        runner.run(context -> {
            Templates templates = context.getBean(Templates.class);
            assertThat(templates.byName("eu", "us")).isEqualTo("pair:us/eu");
            assertThat(templates.byPosition("eu", "us")).as("#p0 is the first argument, #a1 the second")
                .isEqualTo("pos:eu-us");
            assertThat(templates.shadowed("eu", "us")).as("a parameter named p0 wins over the position")
                .isEqualTo("shadow:us");
            assertThat(templates.mixed("eu", 3)).isEqualTo("mixed:eu:4");
            assertThatIllegalArgumentException().isThrownBy(() -> templates.byName(null, "us"))
                .withMessageContaining("#{#first} evaluated to null");
        });
    }

    @Test
    void equalArraysLockTheSameName() {
        runner.run(context -> {
            Templates templates = context.getBean(Templates.class);
            LockManager locks = context.getBean(LockManager.class);
            try (Lease held = locks.tryAcquire("job:[a, b]", Duration.ofSeconds(30)).orElseThrow()) {
                int runs = templates.runs();
                assertThat(templates.byArray(new String[] { "a", "b" })).as("skipped: the same name is held").isNull();
                assertThat(templates.byList(new ArrayList<>(List.of("a", "b")))).isNull();
                assertThat(templates.runs()).isEqualTo(runs);
            }
        });
    }

    @Test
    void valueInObjectsIdentityFormFailsTheCallWithoutRunningTheMethod() {
        runner.run(context -> {
            Templates templates = context.getBean(Templates.class);
            assertThat(templates.byKey("k-1")).isEqualTo("key:k-1");
            int runs = templates.runs();
            assertThatIllegalArgumentException().isThrownBy(() -> templates.byKey(new Object()))
                .withMessageStartingWith("@DistributedLock resource 'key:#{#key}' of " + Templates.class.getName()
                        + ".byKey(Object): #{#key} rendered a java.lang.Object as Object's identity form "
                        + "(java.lang.Object@")
                .withMessageContaining("differs per call and per JVM, so the lock would exclude nothing; the method "
                        + "was not run");
            assertThatIllegalArgumentException().isThrownBy(() -> templates.byTask(() -> { }))
                .withMessageContaining(".byTask(Runnable): #{#task} rendered a ")
                .withMessageContaining("as Object's identity form");
            assertThatIllegalArgumentException().isThrownBy(() -> templates.byKeys(List.of("a", new Plain())))
                .withMessageContaining(".byKeys(List): #{#keys} rendered a " + Plain.class.getName()
                        + " as Object's identity form (" + Plain.class.getName() + "@");
            assertThatIllegalArgumentException().isThrownBy(templates::byBean)
                .withMessageContaining(".byBean(): #{@plainBean} rendered a " + Plain.class.getName());
            assertThat(templates.runs()).isEqualTo(runs);
            assertThat(CurrentLease.get()).isEmpty();
        });
    }

    @Test
    void collectionThatContainsItselfFailsTheCall() {
        runner.run(context -> {
            List<Object> self = new ArrayList<>();
            self.add(self);
            assertThatIllegalArgumentException().isThrownBy(() -> context.getBean(Templates.class).byKeys(self))
                .withMessageContaining(".byKeys(List): #{#keys} evaluated to a java.util.ArrayList that contains "
                        + "itself");
        });
    }

    /** A class without a toString() of its own. */
    public static class Plain {
    }

    /** Guarded methods whose names come from their arguments. */
    public static class Templates {

        private final AtomicInteger runs = new AtomicInteger();

        public int runs() {
            return runs.get();
        }

        @DistributedLock(resource = "job:#{#root.args}")
        public String byArgs(String region, int shard) {
            return ran();
        }

        @DistributedLock(resource = "pair:#{#second}/#{#first}")
        public String byName(String first, String second) {
            return ran();
        }

        @DistributedLock(resource = "pos:#{#p0}-#{#a1}")
        public String byPosition(String first, String second) {
            return ran();
        }

        @DistributedLock(resource = "shadow:#{#p0}")
        public String shadowed(String first, String p0) {
            return ran();
        }

        @DistributedLock(resource = "mixed:#{#region}:#{#shard + 1}")
        public String mixed(String region, int shard) {
            return ran();
        }

        @DistributedLock(resource = "job:#{#names}")
        public @Nullable String byArray(String[] names) {
            return ran();
        }

        @DistributedLock(resource = "job:#{#grid}")
        public String byGrid(int[][] grid) {
            return ran();
        }

        @DistributedLock(resource = "job:#{#names}")
        public @Nullable String byList(List<String> names) {
            return ran();
        }

        @DistributedLock(resource = "job:#{#regions}")
        public String byMap(Map<String, List<String>> regions) {
            return ran();
        }

        @DistributedLock(resource = "key:#{#key}")
        public String byKey(Object key) {
            return ran();
        }

        @DistributedLock(resource = "key:#{#keys}")
        public String byKeys(List<?> keys) {
            return ran();
        }

        @DistributedLock(resource = "task:#{#task}")
        public String byTask(Runnable task) {
            return ran();
        }

        @DistributedLock(resource = "bean:#{@plainBean}")
        public String byBean() {
            return ran();
        }

        private String ran() {
            runs.incrementAndGet();
            return CurrentLease.require().resource();
        }
    }
}

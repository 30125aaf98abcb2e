package io.distlock.spring.aot;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import com.zaxxer.hikari.HikariConfig;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.aop.LockExpressionRoot;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.spring.properties.DistributedLockPropertiesAutoConfiguration;
import io.distlock.spring.slot.DistributedLockSlotAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native-image hints of distributed locks, checked with {@link RuntimeHintsPredicates}: those the registrar
 * gives, and those Spring's own AOT processing of an application with the auto-configuration collects. No native
 * image is built here.
 */
class DistributedLockRuntimeHintsTests {

    @Test
    void everySchemaScriptOfLockCoreIsARegisteredResource() throws IOException {
        RuntimeHints hints = registered();
        Resource[] scripts = new PathMatchingResourcePatternResolver()
            .getResources("classpath*:" + DistributedLockRuntimeHints.SCRIPTS);
        assertThat(scripts).extracting(Resource::getFilename).contains("schema-h2.sql", "schema-postgresql.sql",
                "schema-mariadb.sql", "upgrade-slots-h2.sql", "fencing-schema-postgresql.sql");
        for (Resource script : scripts) {
            assertThat(RuntimeHintsPredicates.resource().forResource("io/distlock/jdbc/dialect/"
                    + script.getFilename())).as(script.getFilename()).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/spring-configuration-metadata.json"))
            .accepts(hints);
    }

    @Test
    void whatResourceTemplatesReachThroughSpelIsInvocable() {
        RuntimeHints hints = registered();
        List<Method> rootMethods = Arrays.stream(LockExpressionRoot.class.getDeclaredMethods())
            .filter(method -> Modifier.isPublic(method.getModifiers())).toList();
        assertThat(rootMethods).extracting(Method::getName).contains("getMethod", "getMethodName", "getTarget",
                "getTargetClass", "getArgs");
        for (Method method : rootMethods) {
            assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method)).as(method.getName())
                .accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Method.class, "getName")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Class.class, "getSimpleName"))
            .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(HikariConfig.class, "getJdbcUrl"))
            .accepts(hints);
    }

    @Test
    void theRegistrarIsListedInAotFactories() {
        assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
            .load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(DistributedLockRuntimeHints.class);
    }

    @Test
    void aheadOfTimeProcessingOfAnApplicationCollectsTheHintsAndProxiesGuardedBeans() {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        TestPropertyValues.of("spring.datasource.url=jdbc:h2:mem:aot", "distributed-lock.cleanup.enabled=false")
            .applyTo(context);
        context.register(Application.class);
        InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("io.distlock.spring.aot", "Application")), files);
        new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        generation.writeGeneratedContent();
        RuntimeHints hints = generation.getRuntimeHints();
        assertThat(RuntimeHintsPredicates.resource().forResource("io/distlock/jdbc/dialect/schema-h2.sql"))
            .accepts(hints);
        for (String asset : DistributedLockRuntimeHints.DASHBOARD) {
            assertThat(RuntimeHintsPredicates.resource().forResource(asset)).as(asset).accepts(hints);
            assertThat(new ClassPathResource(asset).exists()).as(asset).isTrue();
        }
        Predicate<RuntimeHints> getMethodName = RuntimeHintsPredicates.reflection()
            .onMethodInvocation(LockExpressionRoot.class, "getMethodName");
        assertThat(getMethodName).accepts(hints);
        assertThat(files.getGeneratedFiles(Kind.CLASS).keySet())
            .anyMatch(name -> name.startsWith(Jobs.class.getName().replace('.', '/') + "$$SpringCGLIB$$"));
    }

    private static RuntimeHints registered() {
        RuntimeHints hints = new RuntimeHints();
        new DistributedLockRuntimeHints().registerHints(hints, DistributedLockRuntimeHintsTests.class.getClassLoader());
        return hints;
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class, DistributedLockAopAutoConfiguration.class,
            DistributedLockSlotAutoConfiguration.class, DistributedLockPropertiesAutoConfiguration.class })
    static class Application {

        @Bean
        Jobs jobs() {
            return new Jobs();
        }
    }

    /** A guarded bean, class-proxied. */
    static class Jobs {

        @DistributedLock(resource = "aot:#{#root.methodName}")
        public void run() {
        }
    }
}

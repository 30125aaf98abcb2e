package io.distlock.spring.aot;

import java.lang.reflect.Method;
import java.util.List;

import io.distlock.spring.aop.LockExpressionRoot;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

/**
 * What distributed locks read reflectively or from the class path at run time, for a GraalVM native image: the
 * schema scripts of lock-core (read by the schema initialiser and {@code LockSchema}), the configuration metadata
 * (read by the start-up check of {@code distributed-lock.*} keys), the lock dashboard's page and assets, the methods that resource templates reach through
 * SpEL ({@code #root.methodName}, {@code #root.targetClass.simpleName}, {@code #root.method.name}), and the JDBC URL
 * getters of the pools whose URL start-up messages name.
 */
class DistributedLockRuntimeHints implements RuntimeHintsRegistrar {

    /** The DDL scripts of lock-core: schema, slot upgrade and fencing table, one per database. */
    static final String SCRIPTS = "io/distlock/jdbc/dialect/*.sql";

    static final List<String> METADATA = List.of("META-INF/spring-configuration-metadata.json",
            "META-INF/additional-spring-configuration-metadata.json");

    /** The lock dashboard's page, script and style, read by its controller. */
    static final List<String> DASHBOARD = List.of("io/distlock/spring/dashboard/index.html",
            "io/distlock/spring/dashboard/dashboard.js", "io/distlock/spring/dashboard/dashboard.css");

    private static final List<String> POOLS = List.of("com.zaxxer.hikari.HikariDataSource",
            "com.zaxxer.hikari.HikariConfig", "org.springframework.jdbc.datasource.AbstractDriverBasedDataSource");

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(SCRIPTS);
        METADATA.forEach(hints.resources()::registerPattern);
        DASHBOARD.forEach(hints.resources()::registerPattern);
        hints.reflection().registerType(LockExpressionRoot.class, MemberCategory.INVOKE_PUBLIC_METHODS);
        hints.reflection().registerType(Method.class, type -> type.withMethod("getName", List.of(),
                ExecutableMode.INVOKE));
        hints.reflection().registerType(Class.class, type -> type
            .withMethod("getName", List.of(), ExecutableMode.INVOKE)
            .withMethod("getSimpleName", List.of(), ExecutableMode.INVOKE));
        for (String pool : POOLS) {
            if (ClassUtils.isPresent(pool, classLoader)) {
                hints.reflection().registerType(TypeReference.of(pool), MemberCategory.INVOKE_PUBLIC_METHODS);
            }
        }
    }
}

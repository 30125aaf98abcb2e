package io.distlock.spring;

import java.util.Arrays;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * Imports the configuration of {@link EnableDistributedLocks} after the application's own configuration classes, as
 * auto-configuration is imported, so that its lock repository and lock manager back off when the application defines
 * its own.
 */
class DistributedLocksImportSelector implements DeferredImportSelector, EnvironmentAware {

    /**
     * The configurations imported, by name: the annotation's package is what the aspects' packages import, so it
     * names what it needs rather than importing them back.
     */
    static final String[] IMPORTS = { "io.distlock.spring.enable.EnableDistributedLocksConfiguration",
        "io.distlock.spring.aop.DistributedLockAopConfiguration", "io.distlock.spring.slot.OncePerSlotConfiguration" };

    /** The configuration of the woven aspect, in {@code io.distlock:lock-aspectj}. */
    static final String ASPECT_CONFIGURATION = "io.distlock.aspectj.DistributedLockAspectConfiguration";

    private @Nullable Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public String[] selectImports(AnnotationMetadata importingClassMetadata) {
        Map<String, @Nullable Object> attributes = importingClassMetadata.getAnnotationAttributes(
                EnableDistributedLocks.class.getName());
        if (attributes == null || attributes.get("mode") != AdviceMode.ASPECTJ) {
            return IMPORTS.clone();
        }
        if (!ClassUtils.isPresent(ASPECT_CONFIGURATION, getClass().getClassLoader())) {
            throw new IllegalStateException("@EnableDistributedLocks(mode = AdviceMode.ASPECTJ) on "
                    + importingClassMetadata.getClassName() + " needs io.distlock:lock-aspectj on the class path, "
                    + "woven into the guarded classes");
        }
        if (environment instanceof ConfigurableEnvironment configurable) {
            // What the aspects' configurations read: no advisors, no proxies, the interceptors for the aspect.
            configurable.getPropertySources().addFirst(new MapPropertySource("@EnableDistributedLocks(mode = ASPECTJ)",
                    Map.of("distributed-lock.mode", "aspectj")));
        }
        String[] imports = Arrays.copyOf(IMPORTS, IMPORTS.length + 1);
        imports[IMPORTS.length] = ASPECT_CONFIGURATION;
        return imports;
    }
}

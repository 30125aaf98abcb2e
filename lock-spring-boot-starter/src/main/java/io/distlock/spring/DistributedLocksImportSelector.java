package io.distlock.spring;

import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports the configuration of {@link EnableDistributedLocks} after the application's own configuration classes, as
 * auto-configuration is imported, so that its lock repository and lock manager back off when the application defines
 * its own.
 */
class DistributedLocksImportSelector implements DeferredImportSelector {

    /**
     * The configurations imported, by name: the annotation's package is what the aspects' packages import, so it
     * names what it needs rather than importing them back.
     */
    static final String[] IMPORTS = { "io.distlock.spring.enable.EnableDistributedLocksConfiguration",
        "io.distlock.spring.aop.DistributedLockAopConfiguration", "io.distlock.spring.slot.OncePerSlotConfiguration" };

    @Override
    public String[] selectImports(AnnotationMetadata importingClassMetadata) {
        return IMPORTS.clone();
    }
}

package io.distlock.spring;

import io.distlock.spring.aop.DistributedLockAopConfiguration;
import io.distlock.spring.slot.OncePerSlotConfiguration;

import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports the configuration of {@link EnableDistributedLocks} after the application's own configuration classes, as
 * auto-configuration is imported, so that its lock repository and lock manager back off when the application defines
 * its own.
 */
class DistributedLocksImportSelector implements DeferredImportSelector {

    @Override
    public String[] selectImports(AnnotationMetadata importingClassMetadata) {
        return new String[] { DistributedLocksConfiguration.class.getName(),
                DistributedLockAopConfiguration.class.getName(), OncePerSlotConfiguration.class.getName() };
    }
}

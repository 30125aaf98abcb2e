package io.distlock.spring.autoconfigure;

import io.distlock.core.LockManager;

/**
 * Customizes the auto-configured {@link LockManager} before it is built, for example to add a
 * {@link io.distlock.core.LeaseLostListener}. Customizer beans are applied in their order.
 */
@FunctionalInterface
public interface LockManagerBuilderCustomizer {

    /**
     * Customizes the builder.
     *
     * @param builder the builder, with repository, owner generator, watchdog and lost-lease listener beans set
     */
    void customize(LockManager.Builder builder);
}

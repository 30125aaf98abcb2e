package io.distlock.spring.support;

import java.util.List;

/**
 * The start-up check of one lock annotation's declarations ({@code @DistributedLock}, {@code @OncePerSlot}), run
 * with the others by {@link LockDeclarationChecks} so that every wrong declaration of the context is reported in one
 * failure.
 */
public interface LockDeclarationCheck {

    /**
     * Checks every declaration of the context's beans.
     *
     * @return one message per problem, each naming the annotation, class, method and attribute; empty when all are
     *     valid
     */
    List<String> problems();

    /**
     * Called when no check found a problem, before scheduled jobs start: for warnings, listeners and checks of the
     * store that only make sense once the declarations are valid.
     */
    void accepted();
}

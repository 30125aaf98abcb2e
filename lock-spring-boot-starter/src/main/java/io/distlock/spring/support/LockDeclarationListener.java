package io.distlock.spring.support;

/**
 * Told once at start-up, after every declaration was checked, of the locks the application's annotated methods
 * declare, so that what reports on locks can show each of them before its first use — the Micrometer meters are
 * registered at zero this way, so that an alert on {@code distributed.lock.lost} finds its series from the start.
 * Listener beans are called in their order on the thread that starts the context.
 */
public interface LockDeclarationListener {

    /**
     * A {@link io.distlock.spring.DistributedLock} method's lock.
     *
     * @param name its label for metrics: the resource template as declared, such as {@code report:#{#month}}
     */
    default void lockDeclared(String name) {
    }

    /**
     * A {@link io.distlock.spring.OncePerSlot} method's job, whose lock and slots are labelled with its name.
     *
     * @param job the job's name
     */
    default void slotJobDeclared(String job) {
    }

    /**
     * A hazard the start-up check found: legal, but worth an operator's look, such as a cron job without a zone. It is
     * logged at WARN as well.
     *
     * @param warning the warning, as logged
     */
    default void declarationWarning(String warning) {
    }
}

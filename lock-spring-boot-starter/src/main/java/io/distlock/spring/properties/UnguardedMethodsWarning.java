package io.distlock.spring.properties;

import java.util.List;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OncePerSlot;
import io.distlock.spring.support.GuardedMethods;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * With {@code distributed-lock.enabled=false}, warns once all singletons exist that the context's
 * {@link DistributedLock} and {@link OncePerSlot} methods run without their locks, naming how many there are.
 */
final class UnguardedMethodsWarning implements SmartInitializingSingleton {

    private static final Logger logger = LoggerFactory.getLogger(UnguardedMethodsWarning.class);

    private final ConfigurableListableBeanFactory beanFactory;

    UnguardedMethodsWarning(ConfigurableListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void afterSingletonsInstantiated() {
        logger.warn(message(GuardedMethods.of(beanFactory)));
    }

    static String message(List<String> methods) {
        if (methods.isEmpty()) {
            return "distributed-lock.enabled=false: distributed locks are off; no @DistributedLock or @OncePerSlot "
                    + "method was found among the beans";
        }
        return "distributed-lock.enabled=false: " + methods.size() + " guarded "
                + (methods.size() == 1 ? "method runs" : "methods run") + " without a distributed lock, on every "
                + "replica at once: " + GuardedMethods.named(methods);
    }
}

package io.distlock.spring.dashboard;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The Micrometer counter {@code distributed.lock.dashboard.releases}: locks force-released through the dashboard on
 * this instance, registered at zero when the registry exists.
 */
final class ForcedReleaseCounter implements ForcedReleaseListener {

    static final String NAME = "distributed.lock.dashboard.releases";

    private final ObjectProvider<MeterRegistry> meterRegistry;

    private volatile @Nullable Counter counter;

    ForcedReleaseCounter(ObjectProvider<MeterRegistry> meterRegistry) {
        this.meterRegistry = meterRegistry;
    }

    @Override
    public void released(String resource, long token, String who) {
        Counter registered = counter();
        if (registered != null) {
            registered.increment();
        }
    }

    /** Registers the counter at zero, so that an alert finds its series before the first release. */
    @Nullable Counter counter() {
        Counter registered = counter;
        if (registered == null) {
            MeterRegistry registry = meterRegistry.getIfAvailable();
            if (registry == null) {
                return null;
            }
            registered = Counter.builder(NAME).description("Locks force-released through the lock dashboard")
                    .register(registry);
            counter = registered;
        }
        return registered;
    }
}

package io.distlock.core;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets a repeated warning through at most once per interval and key, and counts the ones it held back, so that a
 * fault that repeats every second is logged once a minute with how often it recurred, not sixty times.
 */
final class WarningThrottle {

    private final long intervalNanos;

    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    WarningThrottle(Duration interval) {
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Whether the warning of a key may be logged now; when it may not, it is counted as held back.
     *
     * @param key what the warning is about
     * @return {@code true} for the first warning of the key and the first after each interval
     */
    boolean allow(String key) {
        long now = System.nanoTime();
        Window window = windows.computeIfAbsent(key, k -> new Window(now - intervalNanos));
        synchronized (window) {
            if (now - window.lastLogged < intervalNanos) {
                window.heldBack.incrementAndGet();
                return false;
            }
            window.lastLogged = now;
            return true;
        }
    }

    /**
     * For the warning being logged: how many were held back since the last one, and resets that count.
     *
     * @param key what the warning is about
     * @return {@code " (12 more since the last warning)"}, or empty when none was held back
     */
    String suppressedNote(String key) {
        Window window = windows.get(key);
        long heldBack = window != null ? window.heldBack.getAndSet(0) : 0;
        return heldBack == 0 ? "" : " (" + heldBack + " more since the last warning)";
    }

    private static final class Window {

        long lastLogged;

        final AtomicLong heldBack = new AtomicLong();

        Window(long lastLogged) {
            this.lastLogged = lastLogged;
        }
    }
}

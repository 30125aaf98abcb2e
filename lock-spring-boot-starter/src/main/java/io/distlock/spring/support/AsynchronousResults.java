package io.distlock.spring.support;

import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapterRegistry;

/**
 * Which methods return an asynchronous result — a {@link CompletionStage} or {@link Future}, a reactive type that
 * Spring's {@link ReactiveAdapterRegistry} knows (Reactor's {@code Mono} and {@code Flux}, RxJava's types,
 * {@code Flow.Publisher}), or a Kotlin {@code suspend} function — whose work runs after the method returned, and so
 * outside a lock taken around the call.
 */
public final class AsynchronousResults {

    private AsynchronousResults() {
    }

    /**
     * What asynchronous result a method returns, if it returns one.
     *
     * @param method the method
     * @return the result type's name, or {@code null} for a synchronous method
     */
    public static @Nullable String of(Method method) {
        if (KotlinDetector.isSuspendingFunction(method)) {
            return "a Kotlin suspend function's result";
        }
        Class<?> type = method.getReturnType();
        if (CompletionStage.class.isAssignableFrom(type) || Future.class.isAssignableFrom(type)
                || ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null) {
            return type.getName();
        }
        return null;
    }
}

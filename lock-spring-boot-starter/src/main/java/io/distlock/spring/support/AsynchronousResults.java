package io.distlock.spring.support;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.stream.BaseStream;

import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * What a guarded method returns, and whether its asynchronous work can be guarded: a {@link CompletionStage}, a
 * deferred reactive type that Spring's {@link ReactiveAdapterRegistry} adapts (Reactor's {@code Mono} and
 * {@code Flux}, RxJava's types, Kotlin's {@code Flow} and anything else with an adapter), or a Kotlin
 * {@code suspend} function (through Spring AOP's coroutine support, which needs {@code kotlinx-coroutines-reactor}).
 * Anything else asynchronous — a bare {@link Future}, a type known to be asynchronous without an adapter, a type
 * its adapter cannot give back (a {@code Publisher} of the application's own), a {@code Stream} consumed after the
 * method returned — is refused at start-up, since its work would run outside the lock.
 */
public final class AsynchronousResults {

    /** Whether Reactor is on the class path: every reactive adapter goes through it. */
    public static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
            AsynchronousResults.class.getClassLoader());

    private static final boolean COROUTINES_REACTOR_PRESENT = ClassUtils.isPresent(
            "kotlinx.coroutines.reactor.MonoKt", AsynchronousResults.class.getClassLoader());

    /** Types that are asynchronous whether or not an adapter is registered for them, by name or package. */
    private static final List<String> ASYNCHRONOUS_NAMES = List.of("org.reactivestreams.Publisher",
            "java.util.concurrent.Flow$Publisher", "reactor.core.publisher.", "io.reactivex.", "io.smallrye.mutiny.",
            "kotlinx.coroutines.", "io.vertx.core.Future", "com.google.common.util.concurrent.ListenableFuture",
            "org.springframework.util.concurrent.ListenableFuture");

    private AsynchronousResults() {
    }

    /**
     * What a method returns.
     *
     * @param method the method
     * @return how its result is guarded, or why it cannot be; {@code null} for a synchronous method
     */
    public static @Nullable AsynchronousResult of(Method method) {
        if (KotlinDetector.isSuspendingFunction(method)) {
            String type = "a Kotlin suspend function's result";
            if (!COROUTINES_REACTOR_PRESENT) {
                return AsynchronousResult.unsupported(type, "Spring AOP guards suspend functions through "
                        + "kotlinx-coroutines-reactor, which is not on the class path; add "
                        + "org.jetbrains.kotlinx:kotlinx-coroutines-reactor");
            }
            return new AsynchronousResult(AsynchronousResult.Kind.SUSPENDING, type, null, returnsFlow(method), null);
        }
        Class<?> type = method.getReturnType();
        if (CompletionStage.class.isAssignableFrom(type)) {
            if (!type.isAssignableFrom(CompletableFuture.class)) {
                return AsynchronousResult.unsupported(type.getName(), "the lock can only be held until a "
                        + "CompletableFuture completes: declare the method to return CompletableFuture or "
                        + "CompletionStage");
            }
            return new AsynchronousResult(AsynchronousResult.Kind.COMPLETION_STAGE, type.getName(), null, false, null);
        }
        if (BaseStream.class.isAssignableFrom(type)) {
            return AsynchronousResult.unsupported(type.getName(), "a Stream is consumed after the method returned, "
                    + "outside the lock; collect it into a List inside the method, or return a Flux");
        }
        ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(type);
        if (adapter != null && REACTOR_PRESENT) {
            if (!type.isAssignableFrom(adapter.getReactiveType())) {
                return AsynchronousResult.unsupported(type.getName(), "Spring's ReactiveAdapterRegistry adapts it "
                        + "only as a " + adapter.getReactiveType().getName() + ", which the aspect would return in "
                        + "its place; declare the method to return " + adapter.getReactiveType().getName());
            }
            if (!adapter.getDescriptor().isDeferred()) {
                return AsynchronousResult.unsupported(type.getName(), "its work starts when the method returns it, "
                        + "not on subscription, so the lock could not be taken before it; return a Mono, a Flux or "
                        + "a CompletableFuture");
            }
            return new AsynchronousResult(AsynchronousResult.Kind.REACTIVE, type.getName(), adapter,
                    adapter.isMultiValue(), null);
        }
        if (Future.class.isAssignableFrom(type)) {
            return AsynchronousResult.unsupported(type.getName(), "a Future's completion cannot be seen without "
                    + "blocking a thread, so the lock could not be released when its work ends; return a "
                    + "CompletableFuture");
        }
        if (isKnownAsynchronous(type)) {
            return AsynchronousResult.unsupported(type.getName(), "it is asynchronous, but Spring's "
                    + "ReactiveAdapterRegistry has no adapter for it" + (REACTOR_PRESENT ? ""
                    : " (every adapter needs io.projectreactor:reactor-core, which is not on the class path)")
                    + ", so the lock could not be held until its work completes");
        }
        return null;
    }

    private static boolean isKnownAsynchronous(Class<?> type) {
        Deque<Class<?>> types = new ArrayDeque<>(List.of(type));
        Set<Class<?>> seen = new HashSet<>();
        while (!types.isEmpty()) {
            Class<?> next = types.pop();
            if (!seen.add(next)) {
                continue;
            }
            String name = next.getName();
            if (ASYNCHRONOUS_NAMES.stream().anyMatch(known -> known.endsWith(".") ? name.startsWith(known)
                    : name.equals(known))) {
                return true;
            }
            if (next.getSuperclass() != null) {
                types.push(next.getSuperclass());
            }
            types.addAll(List.of(next.getInterfaces()));
        }
        return false;
    }

    /** Whether a suspend function returns a Kotlin {@code Flow}: its continuation's type argument says so. */
    private static boolean returnsFlow(Method method) {
        Type[] parameters = method.getGenericParameterTypes();
        if (parameters.length == 0 || !(parameters[parameters.length - 1] instanceof ParameterizedType continuation)) {
            return false;
        }
        Type result = continuation.getActualTypeArguments()[0];
        if (result instanceof WildcardType wildcard && wildcard.getLowerBounds().length == 1) {
            result = wildcard.getLowerBounds()[0];
        }
        Type raw = result instanceof ParameterizedType parameterized ? parameterized.getRawType() : result;
        return raw instanceof Class<?> rawClass && rawClass.getName().equals("kotlinx.coroutines.flow.Flow");
    }
}

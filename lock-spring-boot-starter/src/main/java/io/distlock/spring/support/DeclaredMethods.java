package io.distlock.spring.support;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;

import org.springframework.core.MethodClassKey;

/**
 * The declarations of one annotation in an application context, each parsed once per method and target class, on
 * first use, and cached: what the interceptor looks up on every call and the validator checks at start-up.
 *
 * @param <D> a parsed declaration
 */
public final class DeclaredMethods<D> {

    private final Map<MethodClassKey, Optional<D>> cache = new ConcurrentHashMap<>();

    private final BiFunction<Method, Class<?>, Optional<D>> parser;

    /**
     * Creates the registry.
     *
     * @param parser parses the declaration of a method as its target class sees it, empty when it has none; throws
     *     {@link InvalidLockDeclarationException} when it is wrong
     */
    public DeclaredMethods(BiFunction<Method, Class<?>, Optional<D>> parser) {
        this.parser = parser;
    }

    /**
     * The parsed declaration of a method, parsed on first use.
     *
     * @param method the invoked method, possibly declared by an interface
     * @param targetClass the class of the object it is invoked on
     * @return the declaration, or {@code null} when the method has none
     * @throws InvalidLockDeclarationException when the declaration is wrong
     */
    public @Nullable D find(Method method, Class<?> targetClass) {
        return cache.computeIfAbsent(new MethodClassKey(method, targetClass), key -> parser.apply(method, targetClass))
                .orElse(null);
    }

    /**
     * The declarations parsed so far: every valid one once the context's beans were validated.
     *
     * @return the declarations, each once
     */
    public List<D> declared() {
        return cache.values().stream().flatMap(Optional::stream).distinct().toList();
    }
}

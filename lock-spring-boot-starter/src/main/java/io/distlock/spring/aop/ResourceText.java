package io.distlock.spring.aop;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;
import org.springframework.util.ReflectionUtils;

/**
 * How the values of a resource template become text that is the same for equal values on every call and in every
 * JVM: arrays, collections and maps by their elements ({@code [a, b]}, {@code {k=v}}), recursively; anything else by
 * {@code toString()}. {@link Object#toString()}'s identity form ({@code Customer@1b6d3586}) is never stable text:
 * it would give every call a lock of its own.
 */
final class ResourceText {

    private ResourceText() {
    }

    /**
     * Appends the text of a value.
     *
     * @param text where the text goes
     * @param value the value, possibly an array, collection or map
     * @return the first value (the value itself or one of its elements) whose text is Object's identity form, or
     *     {@code null} when the whole text is stable
     * @throws IllegalArgumentException when an array, collection or map contains itself
     */
    static @Nullable Object append(StringBuilder text, @Nullable Object value) {
        if (value instanceof String string) {
            text.append(string);
            return null;
        }
        return appendValue(text, value, null);
    }

    private static @Nullable Object appendValue(StringBuilder text, @Nullable Object value,
            @Nullable Set<Object> enclosing) {
        if (value == null) {
            text.append("null");
            return null;
        }
        boolean array = value.getClass().isArray();
        if (!array && !(value instanceof Collection<?>) && !(value instanceof Map<?, ?>)) {
            String string = value.toString();
            text.append(string);
            return isIdentityForm(value, string) ? value : null;
        }
        Set<Object> path = enclosing != null ? enclosing : Collections.newSetFromMap(new IdentityHashMap<>());
        if (!path.add(value)) {
            throw new IllegalArgumentException("a " + value.getClass().getName() + " that contains itself has no text");
        }
        try {
            if (value instanceof Map<?, ?> map) {
                return appendEntries(text, map, path);
            }
            Iterator<?> elements = array ? arrayElements(value) : ((Collection<?>) value).iterator();
            text.append('[');
            Object offending = null;
            for (boolean first = true; elements.hasNext(); first = false) {
                if (!first) {
                    text.append(", ");
                }
                Object found = appendValue(text, elements.next(), path);
                offending = offending != null ? offending : found;
            }
            text.append(']');
            return offending;
        }
        finally {
            path.remove(value);
        }
    }

    private static @Nullable Object appendEntries(StringBuilder text, Map<?, ?> map, Set<Object> path) {
        text.append('{');
        Object offending = null;
        boolean first = true;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!first) {
                text.append(", ");
            }
            first = false;
            Object key = appendValue(text, entry.getKey(), path);
            text.append('=');
            Object value = appendValue(text, entry.getValue(), path);
            offending = offending != null ? offending : key != null ? key : value;
        }
        text.append('}');
        return offending;
    }

    private static Iterator<?> arrayElements(Object array) {
        int length = Array.getLength(array);
        return new Iterator<>() {

            private int next;

            @Override
            public boolean hasNext() {
                return next < length;
            }

            @Override
            public Object next() {
                return Array.get(array, next++);
            }
        };
    }

    /**
     * Whether a text is what {@link Object#toString()} makes of a value: its class name, {@code @}, and its hash code.
     *
     * @param value the value
     * @param text the value's {@code toString()}
     * @return {@code true} for the identity form
     */
    static boolean isIdentityForm(Object value, String text) {
        return text.indexOf('@') >= 0
                && text.equals(value.getClass().getName() + "@" + Integer.toHexString(value.hashCode()));
    }

    /**
     * Finds, from a declared type alone, a class whose values certainly have no stable text: a concrete class other
     * than {@link Object} that inherits {@link Object#toString()}, as the type itself or as the element type of an
     * array, collection or map. Interfaces, abstract classes, {@code Object} and unresolved generics are left to the
     * check of each call, since their values may well have a {@code toString()} of their own.
     *
     * @param type the declared type of a rendered value
     * @return the class without a {@code toString()} of its own, or {@code null} when none is certain
     */
    static @Nullable Class<?> withoutStableText(ResolvableType type) {
        Class<?> resolved = type.resolve();
        if (resolved == null || resolved.isPrimitive()) {
            return null;
        }
        if (resolved.isArray()) {
            return withoutStableText(type.getComponentType());
        }
        if (Collection.class.isAssignableFrom(resolved)) {
            return withoutStableText(type.asCollection().getGeneric(0));
        }
        if (Map.class.isAssignableFrom(resolved)) {
            Class<?> key = withoutStableText(type.asMap().getGeneric(0));
            return key != null ? key : withoutStableText(type.asMap().getGeneric(1));
        }
        if (resolved == Object.class || resolved.isInterface() || Modifier.isAbstract(resolved.getModifiers())) {
            return null;
        }
        Method toString = ReflectionUtils.findMethod(resolved, "toString");
        return toString != null && toString.getDeclaringClass() == Object.class ? resolved : null;
    }
}

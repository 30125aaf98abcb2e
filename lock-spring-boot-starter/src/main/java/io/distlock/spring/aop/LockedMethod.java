package io.distlock.spring.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

import io.distlock.core.LockRequest;
import io.distlock.spring.OnLocked;
import io.distlock.spring.support.AsynchronousResult;
import org.jspecify.annotations.Nullable;

/**
 * A {@link io.distlock.spring.DistributedLock} declaration, parsed and checked: what the interceptor needs on every
 * call, with defaults filled in.
 *
 * @param method the guarded method, as the target class declares it
 * @param description the method named for messages: {@code com.example.Jobs.generate(YearMonth)}
 * @param resource the resource template
 * @param ttl the lease length
 * @param minHold how long after acquisition the lock stays held at least
 * @param maxHold how long the watchdog keeps renewing at most
 * @param onLocked what happens when another owner holds the lock
 * @param waitTimeout how long {@link OnLocked#WAIT} keeps trying
 * @param renew whether the watchdog renews the lease
 * @param returnsOptional whether a skipped call returns {@code Optional.empty()} rather than {@code null}
 * @param asynchronous how an asynchronous result is guarded until it completes; {@code null} for a synchronous method
 */
record LockedMethod(Method method, String description, ResourceTemplate resource, Duration ttl,
        Duration minHold, Duration maxHold, OnLocked onLocked, Duration waitTimeout, boolean renew,
        boolean returnsOptional, @Nullable AsynchronousResult asynchronous) {

    public LockedMethod {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(minHold, "minHold");
        Objects.requireNonNull(maxHold, "maxHold");
        Objects.requireNonNull(onLocked, "onLocked");
        Objects.requireNonNull(waitTimeout, "waitTimeout");
    }

    /**
     * The lock request of one call: this declaration applied to the resource name the call evaluated.
     *
     * @param resourceName the evaluated resource template
     * @return the request, labelled with the template so that metrics stay low-cardinality
     */
    LockRequest request(String resourceName) {
        Duration maxWait = onLocked == OnLocked.WAIT ? waitTimeout : Duration.ZERO;
        return new LockRequest(resourceName, ttl, maxWait, minHold, maxHold, renew, resource.text());
    }

    /**
     * Names a method for messages, with its parameter types so that overloads can be told apart.
     *
     * @param method the method
     * @param targetClass the class it is called on
     * @return for example {@code com.example.Jobs.generate(YearMonth)}
     */
    static String describe(Method method, Class<?> targetClass) {
        return targetClass.getName() + "." + method.getName() + Arrays.stream(method.getParameterTypes())
                .map(Class::getSimpleName).collect(Collectors.joining(", ", "(", ")"));
    }
}

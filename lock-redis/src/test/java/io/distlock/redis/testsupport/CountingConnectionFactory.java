package io.distlock.redis.testsupport;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Wraps a connection factory to count the connections handed out and the scripts sent on them ({@code EVALSHA} and
 * {@code EVAL}), so that tests can tell how many round trips an operation made, or that it made none.
 */
public final class CountingConnectionFactory {

    private final AtomicInteger connections = new AtomicInteger();

    private final AtomicInteger scripts = new AtomicInteger();

    private final RedisConnectionFactory factory;

    /**
     * Wraps a factory.
     *
     * @param target the factory that does the work
     */
    public CountingConnectionFactory(RedisConnectionFactory target) {
        this.factory = proxy(target, (proxy, method, args) -> {
            Object result = invoke(target, method, args);
            if (result instanceof RedisConnection connection) {
                connections.incrementAndGet();
                return proxy(connection, (p, m, a) -> {
                    if (m.getName().equals("evalSha") || m.getName().equals("eval")) {
                        scripts.incrementAndGet();
                    }
                    return invoke(connection, m, a);
                });
            }
            return result;
        });
    }

    /** @return the counting factory to give the code under test */
    public RedisConnectionFactory factory() {
        return factory;
    }

    /** @return connections handed out since the last reset */
    public int connections() {
        return connections.get();
    }

    /** @return scripts sent since the last reset */
    public int scripts() {
        return scripts.get();
    }

    /** Starts counting again from zero. */
    public void reset() {
        connections.set(0);
        scripts.set(0);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(T target, InvocationHandler handler) {
        return (T) Proxy.newProxyInstance(CountingConnectionFactory.class.getClassLoader(),
                ClassUtils.getAllInterfaces(target), handler);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (InvocationTargetException ex) {
            throw ex.getCause();
        }
    }
}

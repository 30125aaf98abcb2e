package io.distlock.spring.aop;

import java.lang.reflect.Method;

import io.distlock.spring.support.AsynchronousResults;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Whether the current thread must not block: a Reactor non-blocking thread (an event loop of Reactor Netty, a
 * parallel scheduler), or a Netty event loop that is not Reactor's — Lettuce's, a plain Netty server's — which
 * Reactor does not mark, but which a blocking store statement would stall just the same (BlockHound's Netty
 * integration refuses blocking calls there too).
 */
final class NonBlockingThreads {

    private static final @Nullable Method NETTY_PERMITS_BLOCKING = nettyPermitsBlocking();

    private static final @Nullable Class<?> NETTY_THREAD = NETTY_PERMITS_BLOCKING != null
            ? NETTY_PERMITS_BLOCKING.getDeclaringClass() : null;

    private NonBlockingThreads() {
    }

    /** @return whether the calling thread must not block */
    static boolean isCurrent() {
        Thread thread = Thread.currentThread();
        if (AsynchronousResults.REACTOR_PRESENT && reactor.core.scheduler.Schedulers.isInNonBlockingThread()) {
            return true;
        }
        return NETTY_THREAD != null && NETTY_THREAD.isInstance(thread)
                && !(Boolean) ReflectionUtils.invokeMethod(NETTY_PERMITS_BLOCKING, thread);
    }

    private static @Nullable Method nettyPermitsBlocking() {
        String name = "io.netty.util.concurrent.FastThreadLocalThread";
        ClassLoader loader = NonBlockingThreads.class.getClassLoader();
        if (!ClassUtils.isPresent(name, loader)) {
            return null;
        }
        try {
            return ClassUtils.forName(name, loader).getMethod("permitBlockingCalls");
        }
        catch (ClassNotFoundException | NoSuchMethodException | LinkageError ex) {
            // A Netty older than 4.1.52 has no such method: its event loops are then not recognised.
            return null;
        }
    }
}

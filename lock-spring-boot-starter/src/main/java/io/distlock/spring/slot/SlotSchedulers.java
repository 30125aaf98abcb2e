package io.distlock.spring.slot;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.ClassUtils;

/**
 * The schedulers that {@link io.distlock.spring.OncePerSlot} methods run on, found as Spring's scheduling finds them:
 * the bean that {@code @Scheduled(scheduler = …)} names, a {@link TaskScheduler} or a
 * {@link ScheduledExecutorService}; without a name, the context's only {@code TaskScheduler} or
 * {@code ScheduledExecutorService}, or the one named {@value #DEFAULT_NAME}. Each gives the clock a method's slots
 * are read on and a way to check a slot again later. When the context has no scheduler bean (Spring then runs
 * scheduled methods on a thread of its own), slots are read on the system clock and later checks run on a daemon
 * thread of this class, shut down with the context.
 */
final class SlotSchedulers implements DisposableBean {

    /** The name Spring's scheduling looks for when no scheduler bean is unique. */
    static final String DEFAULT_NAME = "taskScheduler";

    private final ConfigurableListableBeanFactory beanFactory;

    private final Map<String, SlotScheduler> resolved = new ConcurrentHashMap<>();

    private @Nullable ScheduledExecutorService ownThread;

    SlotSchedulers(ConfigurableListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /**
     * The scheduler of a method.
     *
     * @param qualifier the {@code @Scheduled(scheduler = …)} name, or empty for the default scheduler
     * @return the scheduler
     * @throws IllegalStateException when the name matches no scheduler bean ({@link #problem} tells it at start-up)
     */
    SlotScheduler forQualifier(String qualifier) {
        return resolved.computeIfAbsent(qualifier, this::resolve);
    }

    /**
     * Why a scheduler name cannot be used, if it cannot.
     *
     * @param qualifier the {@code @Scheduled(scheduler = …)} name
     * @return the problem, or {@code null} when it names a {@code TaskScheduler} or {@code ScheduledExecutorService}
     */
    @Nullable String problem(String qualifier) {
        if (qualifier.isEmpty()) {
            return null;
        }
        if (!beanFactory.containsBean(qualifier)) {
            return "no bean is named '" + qualifier + "'";
        }
        Class<?> type = beanFactory.getType(qualifier, false);
        if (type != null && !TaskScheduler.class.isAssignableFrom(type)
                && !ScheduledExecutorService.class.isAssignableFrom(type)) {
            return "the bean '" + qualifier + "' is a " + ClassUtils.getUserClass(type).getName()
                    + ", neither a TaskScheduler nor a ScheduledExecutorService";
        }
        return null;
    }

    private SlotScheduler resolve(String qualifier) {
        if (!qualifier.isEmpty()) {
            String problem = problem(qualifier);
            if (problem != null) {
                throw new IllegalStateException("@Scheduled(scheduler = \"" + qualifier + "\"): " + problem);
            }
            return of(qualifier, beanFactory.getBean(qualifier));
        }
        Object unique = beanFactory.getBeanProvider(TaskScheduler.class).getIfUnique();
        if (unique == null) {
            unique = beanFactory.getBeanProvider(ScheduledExecutorService.class).getIfUnique();
        }
        if (unique == null) {
            try {
                unique = beanFactory.getBean(DEFAULT_NAME);
            }
            catch (NoSuchBeanDefinitionException ex) {
                unique = null;
            }
        }
        if (unique instanceof TaskScheduler || unique instanceof ScheduledExecutorService) {
            return of(DEFAULT_NAME, unique);
        }
        return new SlotScheduler("Spring's own scheduling thread", Clock.systemDefaultZone(), 1, this::onOwnThread);
    }

    private static SlotScheduler of(String name, Object bean) {
        if (bean instanceof TaskScheduler scheduler) {
            return new SlotScheduler(name, scheduler.getClock(), threads(bean),
                    (task, delay) -> scheduler.schedule(task, scheduler.getClock().instant().plus(delay)));
        }
        ScheduledExecutorService executor = (ScheduledExecutorService) bean;
        return new SlotScheduler(name, Clock.systemDefaultZone(), threads(bean),
                (task, delay) -> executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS));
    }

    /** How many threads a scheduler has, or 0 when it does not say (such as one starting a thread per task). */
    private static int threads(Object scheduler) {
        Object executor = scheduler;
        if (scheduler instanceof ThreadPoolTaskScheduler pool) {
            try {
                executor = pool.getScheduledExecutor();
            }
            catch (IllegalStateException notInitialized) {
                return 0;
            }
        }
        return executor instanceof ScheduledThreadPoolExecutor pool ? pool.getCorePoolSize() : 0;
    }

    private synchronized void onOwnThread(Runnable task, Duration delay) {
        if (ownThread == null) {
            ownThread = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "distlock-slot-check");
                thread.setDaemon(true);
                return thread;
            });
        }
        ownThread.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public synchronized void destroy() {
        if (ownThread != null) {
            ownThread.shutdownNow();
        }
    }

    /**
     * A scheduler as the slot aspect uses it.
     *
     * @param name its bean name, for messages
     * @param clock the clock it fires by, which labels its slots
     * @param threads how many threads it has, or 0 when it does not say
     * @param later runs a task on it after a delay
     */
    record SlotScheduler(String name, Clock clock, int threads, Later later) {
    }

    /** Runs a task on a scheduler after a delay. */
    @FunctionalInterface
    interface Later {

        void run(Runnable task, Duration delay);
    }
}

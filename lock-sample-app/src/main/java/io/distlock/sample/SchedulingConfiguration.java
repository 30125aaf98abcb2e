package io.distlock.sample;

import java.time.Clock;

import org.springframework.boot.task.ThreadPoolTaskSchedulerBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The scheduler of the {@code @Scheduled} jobs, built from {@code spring.task.scheduling.*}, firing by a clock offset
 * by {@code sample.scheduler-clock-offset}. {@code @OncePerSlot} labels each run's slot on this clock.
 */
@Configuration(proxyBeanMethods = false)
class SchedulingConfiguration {

    @Bean
    ThreadPoolTaskScheduler taskScheduler(ThreadPoolTaskSchedulerBuilder builder, SampleProperties properties) {
        ThreadPoolTaskScheduler scheduler = builder.build();
        scheduler.setClock(Clock.offset(Clock.systemUTC(), properties.schedulerClockOffset()));
        return scheduler;
    }
}

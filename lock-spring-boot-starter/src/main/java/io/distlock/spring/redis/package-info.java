/**
 * The Redis lock store in a Spring Boot application: the lock repository on the application's
 * {@code RedisConnectionFactory} when {@code distributed-lock.store=redis}, or when the application has Redis and no
 * {@code DataSource}, and its health indicator. The manager, the {@code @DistributedLock} aspect, the HTTP API, the
 * Actuator endpoint and the metrics work on it unchanged.
 */
@NullMarked
package io.distlock.spring.redis;

import org.jspecify.annotations.NullMarked;

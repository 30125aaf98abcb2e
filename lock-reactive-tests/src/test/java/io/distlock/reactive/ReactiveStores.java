package io.distlock.reactive;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.distlock.jdbc.LockTableName;
import io.distlock.redis.testsupport.TestRedis;
import io.distlock.testsupport.TestDatabase;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The stores the reactive tests run on, each giving an application the properties that put it on a lock table (or
 * a key prefix) of its own, and removing it afterwards.
 */
enum ReactiveStores {

    H2, POSTGRESQL, REDIS;

    /**
     * Starts an application on this store.
     *
     * @param application the configuration class
     * @param properties extra {@code key=value} properties
     * @return the running application, which removes its table or keys when closed
     */
    Application start(Class<?> application, String... properties) {
        String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        List<String> all = new ArrayList<>(List.of(properties));
        Runnable cleanUp = () -> {
        };
        switch (this) {
            case H2 -> all.add("spring.datasource.url=jdbc:h2:mem:rx-" + tag + ";DB_CLOSE_DELAY=-1");
            case POSTGRESQL -> {
                TestDatabase database = TestDatabase.POSTGRESQL;
                LockTableName table = database.createLockTable();
                all.addAll(List.of("spring.datasource.url=" + database.url(),
                        "spring.datasource.username=" + database.user(),
                        "spring.datasource.password=" + database.password(), "distributed-lock.table-name=" + table,
                        "distributed-lock.jdbc.initialize-schema=never", "spring.datasource.hikari.maximum-pool-size=8"));
                cleanUp = () -> database.dropLockTable(table);
            }
            case REDIS -> {
                TestRedis.assumeAvailable();
                String prefix = TestRedis.newPrefix();
                all.addAll(List.of("distributed-lock.store=redis", "spring.data.redis.host=" + TestRedis.host(),
                        "spring.data.redis.port=" + TestRedis.port(), "distributed-lock.redis.key-prefix=" + prefix,
                        "spring.datasource.url=jdbc:h2:mem:rx-redis-" + tag + ";DB_CLOSE_DELAY=-1"));
                cleanUp = () -> TestRedis.deleteKeys(prefix);
            }
        }
        ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .properties(all.toArray(String[]::new)).run();
        return new Application(context, cleanUp);
    }

    /** A running application on a store. */
    record Application(ConfigurableApplicationContext context, Runnable cleanUp) implements AutoCloseable {

        <T> T bean(Class<T> type) {
            return context.getBean(type);
        }

        @Override
        public void close() {
            try {
                context.close();
            }
            finally {
                cleanUp.run();
            }
        }
    }
}

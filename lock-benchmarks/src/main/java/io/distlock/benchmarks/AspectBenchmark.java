package io.distlock.benchmarks;

import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.distlock.core.LockManager;
import io.distlock.core.LockOutcome;
import io.distlock.core.LockRequest;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.aop.DistributedLockAopAutoConfiguration;
import io.distlock.spring.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.spring.jdbc.DistributedLockJdbcAutoConfiguration;
import io.distlock.testsupport.TestDatabase;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

/**
 * A {@code @DistributedLock} method call against the programmatic call it stands for ({@code LockManager.runLocked}
 * with the same request), in one Spring context on the same database, pool, table and {@link LockManager}. The annotation
 * renews nothing ({@code renew = false}), as the programmatic cycle does not; its resource is a template over the
 * method's parameter, so that each thread locks a resource of its own.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AspectBenchmark {

    /** The Spring application: the starter's auto-configuration on the benchmark's pool, and the guarded bean. */
    @State(Scope.Benchmark)
    public static class Application {

        /** The database id. */
        @Param({"h2"})
        public String db;

        /** {@code annotated} or {@code programmatic}. */
        @Param({"annotated", "programmatic"})
        public String impl;

        boolean annotated;

        HikariDataSource pool;

        ConfigurableApplicationContext context;

        GuardedJob job;

        LockManager manager;

        @Setup(Level.Trial)
        public void start() {
            TestDatabase database = TestDatabase.byId(db);
            pool = BenchPool.open(database, "aspect");
            BenchSchema.create(database, pool);
            BenchSchema.reset(database, pool, CycleBenchmark.allResources());
            context = start(database, pool);
            job = context.getBean(GuardedJob.class);
            annotated = switch (impl) {
                case "annotated" -> true;
                case "programmatic" -> false;
                default -> throw new IllegalArgumentException("impl must be annotated or programmatic, got " + impl);
            };
            manager = context.getBean(LockManager.class);
        }

        @TearDown(Level.Trial)
        public void stop() {
            context.close();
            pool.close();
        }

        static ConfigurableApplicationContext start(TestDatabase database, DataSource dataSource) {
            return new SpringApplicationBuilder(AspectConfiguration.class)
                    .web(WebApplicationType.NONE)
                    .bannerMode(Banner.Mode.OFF)
                    .logStartupInfo(false)
                    .initializers(context -> ((GenericApplicationContext) context).registerBean("dataSource",
                            DataSource.class, () -> dataSource))
                    .properties("distributed-lock.table-name=" + BenchSchema.DISTLOCK_TABLE,
                            "distributed-lock.dialect=" + database.id(),
                            "distributed-lock.jdbc.initialize-schema=never")
                    .run();
        }
    }

    /** One thread's own resource. */
    @State(Scope.Thread)
    public static class Resource {

        String name;

        @Setup(Level.Trial)
        public void name(ThreadParams thread) {
            name = CycleBenchmark.ownResource(thread.getThreadIndex());
        }
    }

    /**
     * One call: {@code annotated} calls the guarded method (the aspect takes the lock, runs the empty method and
     * releases the lock); {@code programmatic} takes and releases the lock through {@link LockManager}.
     *
     * @param application the context
     * @param resource the thread's resource
     * @return whether the lock was taken
     */
    @Benchmark
    public boolean call(Application application, Resource resource) {
        if (application.annotated) {
            if (application.job.run(resource.name) == null) {
                throw new IllegalStateException("the guarded call on " + resource.name + " was skipped");
            }
            return true;
        }
        return programmatic(application.manager, resource.name);
    }

    private static boolean programmatic(LockManager manager, String resource) {
        LockOutcome<Boolean> outcome = manager.runLocked(LockRequest.of(resource, LockClient.TTL).withoutRenewal(),
                lease -> Boolean.TRUE);
        if (outcome.status() != LockOutcome.Status.RAN) {
            throw new IllegalStateException("uncontended runLocked on " + resource + " ended " + outcome.status());
        }
        return true;
    }

    /** The application's configuration. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ PropertyPlaceholderAutoConfiguration.class, AopAutoConfiguration.class,
            DistributedLockJdbcAutoConfiguration.class, DistributedLockAutoConfiguration.class,
            DistributedLockAopAutoConfiguration.class })
    static class AspectConfiguration {

        @Bean
        GuardedJob guardedJob() {
            return new GuardedJob();
        }
    }

    /** The guarded bean. */
    public static class GuardedJob {

        /**
         * Does nothing while holding the lock.
         *
         * @param resource the resource to lock
         * @return {@code true} when the method ran; {@code null} when another owner held the lock
         */
        @DistributedLock(resource = "#{#resource}", ttl = "PT30S", renew = false)
        public Boolean run(String resource) {
            return Boolean.TRUE;
        }
    }
}

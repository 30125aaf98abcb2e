package io.distlock.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method only while this process holds the distributed lock on {@link #resource()}: the lock is
 * taken before the method runs and released after it returns or throws, so that a {@code @Scheduled} job runs on one
 * replica at a time.
 *
 * <pre>{@code
 * @Scheduled(cron = "0 0 * * * *")
 * @DistributedLock(resource = "report:#{#month}", ttl = "PT5M", minHold = "PT30S")
 * public void generate(YearMonth month) { ... }
 * }</pre>
 *
 * <p>While the method runs, {@link io.distlock.core.CurrentLease#get()} returns its lease (fencing token, owner, expiry), and the
 * watchdog renews the lease every fraction of {@link #ttl()} until the method returns or {@link #maxHold()} has
 * passed. A guarded method that calls another guarded method on the same resource, on the same thread, joins the outer
 * lease. Every declaration in the application context is checked at start-up; a mistake fails the start with a
 * message naming the class, the method and the attribute.
 *
 * <p>The annotation works through a Spring AOP proxy: it applies to public calls made through the bean reference,
 * not to calls a bean makes on itself ({@code this.method()}), and not to private or static methods.
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

    /**
     * Name of the locked resource: literal text, with {@code #{…}} SpEL expressions over the method's parameters by
     * name ({@code #month}) or position ({@code #p0}, {@code #a0}), {@code #root.method},
     * {@code #root.targetClass}, {@code #root.args}, beans ({@code @beanName}), and {@code ${…}} property
     * placeholders. Text without <code>#{</code> is used verbatim (after placeholders are resolved). Values become
     * text with {@code toString()}, arrays, collections and maps by their elements ({@code [a, b]}). The result must
     * be 1 to 255 characters, not blank; it is parsed once per method and evaluated on every call.
     *
     * <p>The text must be the same for equal arguments on every call and in every JVM, or the lock excludes nothing:
     * start-up refuses a template that refers to {@code #root.target} or renders a parameter whose declared type is
     * a concrete class without a {@code toString()} of its own, and a call whose value renders as Object's identity
     * form ({@code Customer@1b6d3586}) throws {@link IllegalArgumentException}.
     *
     * @return the resource template
     */
    String resource();

    /**
     * Lease length: an ISO-8601 duration ({@code PT30S}), a number with a unit ({@code 30s}, {@code 500ms}) or a
     * {@code ${…}} placeholder. A number without a unit ({@code "30"}) is refused at start-up rather than read as
     * milliseconds. Empty means {@code distributed-lock.default-ttl}. With {@link #renew()} on, the watchdog keeps
     * renewing a lease of this length while the method runs, so a crashed replica frees the lock within one TTL.
     *
     * @return the lease length
     */
    String ttl() default "";

    /**
     * Shortest time the lock stays held after it was taken, even when the method returns sooner: keeps a replica
     * whose clock is slightly off from running the same short job again right after. Same formats as {@link #ttl()}.
     *
     * @return the minimum hold time
     */
    String minHold() default "PT0S";

    /**
     * Longest time the watchdog keeps renewing the lease, so that a hung method cannot hold the lock forever; after
     * it, the lease runs out by its TTL. Empty means {@code distributed-lock.max-hold}. Same formats as {@link #ttl()}.
     *
     * @return the maximum hold time
     */
    String maxHold() default "";

    /**
     * What happens when another owner holds the lock.
     *
     * @return the behaviour; {@link OnLocked#SKIP} by default
     */
    OnLocked onLocked() default OnLocked.SKIP;

    /**
     * How long {@link OnLocked#WAIT} keeps trying before it gives up as {@link OnLocked#THROW} does. Empty means one
     * {@link #ttl()}. Only allowed with {@link OnLocked#WAIT}. Same formats as {@link #ttl()}.
     *
     * @return the longest wait
     */
    String waitTimeout() default "";

    /**
     * Whether the watchdog renews the lease while the method runs. Without renewal the lease simply expires after
     * {@link #ttl()}, even if the method still runs.
     *
     * @return {@code true} to keep the lease alive
     */
    boolean renew() default true;
}

package io.distlock.spring.aop;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import io.distlock.core.CurrentLease;
import io.distlock.core.Lease;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import io.distlock.spring.OnLocked;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Guarded methods with asynchronous results, for the reactive contract: each holds its lock until the work the test
 * controls ends ({@link #until(String)}), and tells the lease it saw while building its result and in its Reactor
 * context.
 */
public class ReactiveJobs {

    private final Works works;

    private final Inner inner;

    ReactiveJobs(Works works, Inner inner) {
        this.works = works;
        this.inner = inner;
    }

    private Mono<String> work(String resource) {
        CurrentLease.get().ifPresent(lease -> works.assembledUnder.put(resource, lease));
        return works.until(resource).asMono().doOnCancel(() -> works.cancelled.add(resource))
                .flatMap(end -> LockContext.lease()
                .map(lease -> end + " under token " + lease.token())
                .switchIfEmpty(Mono.just(end + " without a lease")));
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
    public Mono<String> monoSkip(String resource) {
        return work(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
    public Mono<String> monoThrow(String resource) {
        return work(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.WAIT, waitTimeout = "PT20S")
    public Mono<String> monoWait(String resource) {
        return work(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT30S")
    public Mono<String> monoLong(String resource) {
        return work(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
    public Flux<String> fluxSkip(String resource) {
        return Flux.concat(Mono.just("first"), work(resource));
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
    public Flux<String> fluxThrow(String resource) {
        return Flux.concat(Mono.just("first"), work(resource));
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.WAIT, waitTimeout = "PT20S")
    public Flux<String> fluxWait(String resource) {
        return Flux.concat(Mono.just("first"), work(resource));
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
    public CompletableFuture<String> futureSkip(String resource) {
        CurrentLease.get().ifPresent(lease -> works.assembledUnder.put(resource, lease));
        return works.future(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
    public CompletableFuture<String> futureThrow(String resource) {
        return works.future(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.WAIT, waitTimeout = "PT20S")
    public CompletableFuture<String> futureWait(String resource) {
        return works.future(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
    public CompletionStage<String> stageSkip(String resource) {
        return works.future(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
    public CompletionStage<String> stageThrow(String resource) {
        return works.future(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
    public Single<String> singleThrow(String resource) {
        return Single.fromCompletionStage(works.future(resource));
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
    public Maybe<String> maybeSkip(String resource) {
        return Maybe.fromCompletionStage(works.future(resource));
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT30S")
    public CompletableFuture<String> futureLong(String resource) {
        return works.future(resource);
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
    public Mono<String> failsAfter(String resource, Duration delay) {
        return Mono.delay(delay).then(Mono.error(new IllegalStateException("the work failed")));
    }

    @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
    public Mono<String> nestedOnTheSameResource(String resource) {
        return inner.onTheSameResource(resource).map(value -> "outer(" + value + ")");
    }

    /** The works the test controls, and what the calls saw: a bean of its own, outside the proxy. */
    public static class Works {

        /** The ends of the works by resource: the test completes or fails them. */
        final Map<String, Sinks.One<String>> ends = new ConcurrentHashMap<>();

        /** The futures of the future-returning methods by resource. */
        final Map<String, CompletableFuture<String>> futures = new ConcurrentHashMap<>();

        /** The resources whose work was cancelled before it ended. */
        final java.util.Set<String> cancelled = ConcurrentHashMap.newKeySet();

        /** The lease each call saw while it built its result, by resource. */
        final Map<String, Lease> assembledUnder = new ConcurrentHashMap<>();

        Sinks.One<String> until(String resource) {
            return ends.computeIfAbsent(resource, key -> Sinks.one());
        }

        CompletableFuture<String> future(String resource) {
            return futures.computeIfAbsent(resource, key -> new CompletableFuture<>());
        }
    }

    /** A guarded method another guarded method's work subscribes to. */
    public static class Inner {

        @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
        public Mono<String> onTheSameResource(String resource) {
            return LockContext.lease().map(lease -> "inner under token " + lease.token());
        }
    }
}

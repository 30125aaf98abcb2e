package io.distlock.reactive

import io.distlock.core.CurrentLease
import io.distlock.core.Lease
import io.distlock.core.LockManager
import io.distlock.spring.DistributedLock
import io.distlock.spring.LockContext
import io.distlock.spring.LockNotAcquiredException
import io.distlock.spring.OnLocked
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.reactor.ReactorContext
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import java.time.Duration
import java.util.UUID
import java.util.concurrent.ConcurrentHashMap
import kotlin.coroutines.coroutineContext

/**
 * Kotlin suspend functions and Flows guarded by `@DistributedLock`, on H2: the lock is held across a `delay`
 * (renewed past its TTL) and refused to another replica meanwhile; cancelling the coroutine releases it at once;
 * SKIP returns null, THROW throws `LockNotAcquiredException`, WAIT suspends until the lock is free; the lease is in
 * the coroutine's Reactor context; a Flow holds the lock until it is collected to its end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SuspendFunctionsTests {

    private lateinit var application: ReactiveStores.Application

    private lateinit var jobs: SuspendingJobs

    private lateinit var otherReplica: LockManager

    @BeforeAll
    fun start() {
        application = ReactiveStores.H2.start(KotlinApplication::class.java)
        jobs = application.bean(SuspendingJobs::class.java)
        otherReplica = LockManager.builder(application.bean(io.distlock.core.LockRepository::class.java))
            .verifySchema(false).build()
    }

    @AfterAll
    fun stop() {
        otherReplica.close()
        application.close()
    }

    private fun resource() = "suspend:" + UUID.randomUUID()

    private fun refusedElsewhere(resource: String): Boolean {
        val lease = otherReplica.tryAcquire(resource, Duration.ofSeconds(1))
        lease.ifPresent(Lease::release)
        return lease.isEmpty
    }

    private fun awaitFree(resource: String) {
        await().atMost(Duration.ofSeconds(5)).until { !refusedElsewhere(resource) }
    }

    @Test
    fun aSuspendFunctionHoldsItsLockAcrossADelayLongerThanItsTtl() = runBlocking {
        val resource = resource()
        val call = async(Dispatchers.Default) { jobs.holdAcrossDelay(resource, 3000) }
        await().atMost(Duration.ofSeconds(10)).until { started.containsKey(resource) }
        // The TTL is one second: three of them pass while the function is suspended in delay().
        await().during(Duration.ofMillis(2000)).atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(200))
            .until { call.isCompleted || refusedElsewhere(resource) }
        val token = call.await()
        assertThat(token).isEqualTo(started[resource])
        awaitFree(resource)
    }

    @Test
    fun cancellingTheCoroutineReleasesTheLockAtOnce() = runBlocking {
        val resource = resource()
        val job = launch(Dispatchers.Default) { jobs.holdLong(resource) }
        await().atMost(Duration.ofSeconds(10)).until { started.containsKey(resource) }
        assertThat(refusedElsewhere(resource)).isTrue()
        job.cancel()
        // The TTL is 30 seconds: free within a few means it was released, not left to expire.
        awaitFree(resource)
    }

    @Test
    fun skipThrowAndWaitWhenTheLockIsHeldElsewhere() = runBlocking {
        val resource = resource()
        val held = otherReplica.tryAcquire(resource, Duration.ofSeconds(30)).orElseThrow()
        assertThat(jobs.skip(resource)).`as`("SKIP").isNull()
        assertThatThrownBy { runBlocking { jobs.throwing(resource) } }.`as`("THROW")
            .isInstanceOf(LockNotAcquiredException::class.java).hasMessageContaining(resource)
        val waiting = async(Dispatchers.Default, CoroutineStart.DEFAULT) { jobs.waiting(resource) }
        delay(500)
        assertThat(waiting.isCompleted).`as`("WAIT, while held").isFalse()
        held.release()
        assertThat(withTimeout(10_000) { waiting.await() }).`as`("WAIT, once free").startsWith("waited under token ")
        Unit
    }

    @Test
    fun aFlowHoldsTheLockUntilItIsCollectedToItsEnd() = runBlocking {
        val resource = resource()
        val gate = CompletableDeferred<Unit>()
        val collected = async(Dispatchers.Default) { jobs.items(resource, gate).toList() }
        await().atMost(Duration.ofSeconds(10)).until { started.containsKey(resource) }
        assertThat(refusedElsewhere(resource)).isTrue()
        gate.complete(Unit)
        assertThat(collected.await()).containsExactly("first", "second")
        awaitFree(resource)
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    open class KotlinApplication {

        @Bean
        open fun suspendingJobs() = SuspendingJobs()
    }

    companion object {

        /** The token each call started under, by resource: outside the proxied bean. */
        val started = ConcurrentHashMap<String, Long>()
    }

    /** Guarded suspend functions and Flows; open, as a class proxy needs. */
    open class SuspendingJobs {

        /** The lease from the coroutine context's Reactor context, and from LockContext. */
        private suspend fun leaseHere(): Lease {
            val fromContext = coroutineContext[ReactorContext]?.context?.let { LockContext.lease(it).orElse(null) }
            val fromMono = LockContext.lease().awaitSingle()
            check(fromContext === fromMono) { "the coroutine context's lease differs from LockContext's" }
            return fromMono
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
        open suspend fun holdAcrossDelay(resource: String, millis: Long): Long {
            val lease = leaseHere()
            started[resource] = lease.token()
            delay(millis)
            lease.checkHeld()
            return lease.token()
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT30S")
        open suspend fun holdLong(resource: String) {
            started[resource] = leaseHere().token()
            delay(60_000)
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
        open suspend fun skip(resource: String): String? {
            return "ran under token " + leaseHere().token()
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.THROW)
        open suspend fun throwing(resource: String): String {
            return "ran under token " + leaseHere().token()
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT1S", onLocked = OnLocked.WAIT, waitTimeout = "PT20S")
        open suspend fun waiting(resource: String): String {
            delay(10)
            return "waited under token " + leaseHere().token()
        }

        @DistributedLock(resource = "#{#resource}", ttl = "PT1S")
        open fun items(resource: String, gate: CompletableDeferred<Unit>): Flow<String> = flow {
            started[resource] = leaseHere().token()
            emit("first")
            gate.await()
            emit("second")
        }
    }
}

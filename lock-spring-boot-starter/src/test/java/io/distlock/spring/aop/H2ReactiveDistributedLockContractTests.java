package io.distlock.spring.aop;

import java.util.List;
import java.util.UUID;

/**
 * The asynchronous {@code @DistributedLock} contract on embedded H2.
 */
class H2ReactiveDistributedLockContractTests extends ReactiveDistributedLockContractTests {

    @Override
    List<String> storeProperties() {
        return List.of("spring.datasource.url=jdbc:h2:mem:reactive-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }
}

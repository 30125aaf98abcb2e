package io.distlock.spring.web;

import org.springframework.test.context.TestPropertySource;

/**
 * The HTTP lock API on embedded H2, whose schema the starter creates.
 */
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:http-tests;DB_CLOSE_DELAY=-1")
class H2LockHttpTests extends LockHttpContractTests {
}

package org.springframework.boot.jdbc.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Test code only: Spring Boot 3's data source auto-configuration under the name Spring Boot 4 gives it, so that the
 * starter's wiring tests, written against Spring Boot 4, compile and run unchanged on Spring Boot 3.5.
 */
@AutoConfiguration
@Import(org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration.class)
public final class DataSourceAutoConfiguration {
}

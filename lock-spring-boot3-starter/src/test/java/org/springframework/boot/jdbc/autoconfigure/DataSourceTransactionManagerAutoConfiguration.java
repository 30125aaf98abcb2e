package org.springframework.boot.jdbc.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Test code only: Spring Boot 3's transaction manager auto-configuration for a data source under the name Spring
 * Boot 4 gives it (see {@link DataSourceAutoConfiguration}).
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@Import(org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration.class)
public final class DataSourceTransactionManagerAutoConfiguration {
}

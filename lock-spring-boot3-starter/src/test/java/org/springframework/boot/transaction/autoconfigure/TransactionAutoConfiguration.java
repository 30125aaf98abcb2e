package org.springframework.boot.transaction.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Test code only: Spring Boot 3's transaction auto-configuration under the name Spring Boot 4 gives it (see
 * {@link org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration}).
 */
@AutoConfiguration(after = DataSourceTransactionManagerAutoConfiguration.class)
@Import(org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration.class)
public final class TransactionAutoConfiguration {
}

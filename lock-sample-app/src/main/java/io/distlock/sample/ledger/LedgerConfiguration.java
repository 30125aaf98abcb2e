package io.distlock.sample.ledger;

import javax.sql.DataSource;

import io.distlock.core.jdbc.FencingGuard;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The fence in front of the ledger, in the sample's own table {@code sample_fencing_tokens}.
 */
@Configuration(proxyBeanMethods = false)
class LedgerConfiguration {

    @Bean
    FencingGuard ledgerFence(DataSource dataSource) {
        return FencingGuard.builder(dataSource).tableName("sample_fencing_tokens").build();
    }
}

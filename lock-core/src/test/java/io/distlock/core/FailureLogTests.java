package io.distlock.core;

import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Repeated failures are told once at WARN with their cause, summarised afterwards, their stack traces kept to DEBUG,
 * and the first success after them told at INFO.
 */
class FailureLogTests {

    @Test
    void theFirstFailureIsOneWarnLineTheNextOnesASummaryAndTheRecoveryAnInfoLine() {
        Logger logger = (Logger) LoggerFactory.getLogger("failure-log-test");
        logger.setLevel(Level.DEBUG);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        FailureLog log = new FailureLog(logger, Duration.ZERO);
        IllegalStateException outage = new IllegalStateException("Connection refused");
        log.failed("Could not renew the lease on 'job'", outage);
        log.failed("Could not renew the lease on 'job'", outage);
        log.failed("Could not renew the lease on 'job'", outage);
        log.succeeded("Lease renewal");
        List<String> warnings = events.list.stream().filter(event -> event.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(warnings).containsExactly(
                "Could not renew the lease on 'job': java.lang.IllegalStateException: Connection refused",
                "Could not renew the lease on 'job': 1 more failures since the last report, 2 in 0 s; the last: "
                        + "java.lang.IllegalStateException: Connection refused",
                "Could not renew the lease on 'job': 1 more failures since the last report, 3 in 0 s; the last: "
                        + "java.lang.IllegalStateException: Connection refused");
        assertThat(events.list).filteredOn(event -> event.getLevel() == Level.WARN)
                .allMatch(event -> event.getThrowableProxy() == null);
        assertThat(events.list).filteredOn(event -> event.getLevel() == Level.DEBUG).hasSize(3)
                .allMatch(event -> event.getThrowableProxy() != null);
        assertThat(events.list).filteredOn(event -> event.getLevel() == Level.INFO)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("Lease renewal works again after 3 failures in 0 s");
        assertThat(log.failures()).isZero();
    }

    @Test
    void failuresWithinTheSummaryIntervalAreNotRepeatedAtWarn() {
        Logger logger = (Logger) LoggerFactory.getLogger("failure-log-test-quiet");
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        FailureLog log = new FailureLog(logger);
        for (int i = 0; i < 10; i++) {
            log.failed("Skipped Jobs.export()", new IllegalStateException("down"));
        }
        assertThat(events.list).filteredOn(event -> event.getLevel() == Level.WARN).hasSize(1);
        assertThat(log.failures()).isEqualTo(10);
    }
}

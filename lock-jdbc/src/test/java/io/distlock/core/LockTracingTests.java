package io.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.distlock.jdbc.JdbcLockRepository;
import io.distlock.jdbc.LockTableName;
import io.distlock.testsupport.TestDatabase;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guarded call's observations through a real tracing bridge — Micrometer Tracing on OpenTelemetry's SDK, spans
 * exported in memory — as an application with tracing on gets them: a span for the call and one for the hold inside
 * it, children of the scheduled execution's span in the same trace, with the lock's key values as attributes.
 */
class LockTracingTests {

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();

    private SdkTracerProvider tracerProvider;

    private ObservationRegistry registry;

    private LockTableName table;

    @BeforeEach
    void startTracing() {
        tracerProvider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
        OtelTracer tracer = new OtelTracer(tracerProvider.get("distlock-test"), new OtelCurrentTraceContext(),
                event -> { });
        registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        table = TestDatabase.H2.createLockTable();
    }

    @AfterEach
    void stopTracing() {
        tracerProvider.close();
        TestDatabase.H2.dropLockTable(table);
    }

    @Test
    void aGuardedScheduledCallIsASpanWithItsHoldInsideBothChildrenOfTheScheduledExecution() {
        String resource = "report:" + UUID.randomUUID();
        JdbcLockRepository repository = JdbcLockRepository.builder(TestDatabase.H2.dataSource())
                .tableName(table.value()).build();
        long token;
        try (LockManager locks = LockManager.builder(repository).observationRegistry(registry).build()) {
            Observation scheduled = Observation.start("tasks.scheduled.execution", registry);
            try (Observation.Scope scope = scheduled.openScope()) {
                token = locks.runLocked(LockRequest.of(resource, Duration.ofMinutes(1)).withLabel("report:#{#month}"),
                        Lease::token).value();
            }
            scheduled.stop();
        }
        List<SpanData> finished = spans.getFinishedSpanItems();
        SpanData scheduled = named(finished, "tasks.scheduled.execution");
        SpanData call = named(finished, "lock report:#{#month}");
        SpanData held = finished.stream().filter(span -> span.getParentSpanId().equals(call.getSpanId()))
                .findFirst().orElseThrow(() -> new AssertionError("no span inside the call's: " + finished));
        assertThat(finished).extracting(SpanData::getTraceId).containsOnly(scheduled.getTraceId());
        assertThat(call.getParentSpanId()).isEqualTo(scheduled.getSpanId());
        assertThat(call.getAttributes().get(AttributeKey.stringKey("lock"))).isEqualTo("report:#{#month}");
        assertThat(call.getAttributes().get(AttributeKey.stringKey("outcome"))).isEqualTo("ran");
        assertThat(call.getAttributes().get(AttributeKey.stringKey("resource"))).isEqualTo(resource);
        assertThat(call.getAttributes().get(AttributeKey.stringKey("token"))).isEqualTo(Long.toString(token));
        assertThat(held.getStartEpochNanos()).isGreaterThanOrEqualTo(call.getStartEpochNanos());
        assertThat(held.getEndEpochNanos()).isLessThanOrEqualTo(call.getEndEpochNanos());
    }

    private static SpanData named(List<SpanData> spans, String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span named '" + name + "' in " + spans));
    }
}

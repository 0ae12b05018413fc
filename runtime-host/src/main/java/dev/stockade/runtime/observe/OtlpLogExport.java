package dev.stockade.runtime.observe;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporterBuilder;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

/**
 * The one class that touches the OpenTelemetry SDK: a logger provider whose batch processor hands records to
 * the SDK's OTLP/HTTP log exporter (protobuf, sent with the JDK's HttpClient). {@link Telemetry} creates it
 * only when an endpoint is configured, so a runtime without one never loads an SDK class.
 */
final class OtlpLogExport {
    /** The records that may wait for export; further ones are dropped by the batch processor. */
    static final int QUEUE = 1000;
    /** How long a record may wait before its batch is sent. */
    static final Duration SCHEDULE_DELAY = Duration.ofMillis(500);
    private static final Duration CLOSE_BOUND = Duration.ofSeconds(2);
    // The SDK reports through java.util.logging as unstructured text that may quote a collector's answer; the
    // runtime's own structured line (below) replaces it. A strong reference keeps the level from being collected.
    private static final java.util.logging.Logger SDK_LOG = java.util.logging.Logger.getLogger("io.opentelemetry");

    private final SdkLoggerProvider provider;
    private final Logger logger;

    OtlpLogExport(String base, String apiKey, String environment, String agentId) {
        SDK_LOG.setLevel(Level.OFF);
        OtlpHttpLogRecordExporterBuilder exporter = OtlpHttpLogRecordExporter.builder()
                .setEndpoint(base + "/v1/logs")
                .setConnectTimeout(Duration.ofSeconds(5))
                .setTimeout(Duration.ofSeconds(10));
        if (apiKey != null && !apiKey.isBlank()) {
            exporter.addHeader("x-api-key", apiKey);
        }
        BatchLogRecordProcessor batches = BatchLogRecordProcessor.builder(new ReportingExporter(exporter.build()))
                .setMaxQueueSize(QUEUE).setScheduleDelay(SCHEDULE_DELAY).build();
        this.provider = SdkLoggerProvider.builder().setResource(resource(environment, agentId))
                .addLogRecordProcessor(batches).build();
        this.logger = provider.get("stockade.runtime");
    }

    /** Only these resource attributes: no host, process or SDK description rides along with every batch. */
    private static Resource resource(String environment, String agentId) {
        AttributesBuilder attrs = Attributes.builder()
                .put("service.name", "stockade-agent-runtime")
                .put("deployment.environment", environment == null
                        || !TelemetryAttribute.NAME.matcher(environment).matches() ? "unknown" : environment);
        if (agentId != null && TelemetryAttribute.UUID.matcher(agentId).matches()) {
            attrs.put("agent.id", agentId);
        }
        return Resource.create(attrs.build());
    }

    void emit(String event, List<TelemetryAttribute> attributes) {
        AttributesBuilder attrs = Attributes.builder();
        for (TelemetryAttribute a : attributes) {
            if (a instanceof TelemetryAttribute.Flag f) {
                attrs.put(AttributeKey.booleanKey(f.key()), f.value());
            } else if (a instanceof TelemetryAttribute.Count c) {
                attrs.put(AttributeKey.longKey(c.key()), c.value());
            } else if (a instanceof TelemetryAttribute.Id id) {
                attrs.put(AttributeKey.stringKey(id.key()), id.value());
            }
        }
        logger.logRecordBuilder().setTimestamp(Instant.now()).setBody(event).setAllAttributes(attrs.build()).emit();
    }

    void close() {
        provider.shutdown().join(CLOSE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Writes one structured warning per failed export, naming only the kind of failure. */
    private record ReportingExporter(LogRecordExporter delegate) implements LogRecordExporter {
        @Override
        public CompletableResultCode export(Collection<LogRecordData> logs) {
            CompletableResultCode result = delegate.export(logs);
            return result.whenComplete(() -> {
                if (!result.isSuccess()) {
                    Throwable t = result.getFailureThrowable();
                    Log.warn("telemetry.export_failed", "error", t == null ? "rejected" : t.getClass().getSimpleName(),
                            "records", logs.size());
                }
            });
        }

        @Override
        public CompletableResultCode flush() {
            return delegate.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return delegate.shutdown();
        }
    }
}

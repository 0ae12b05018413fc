package dev.stockade.runtime.observe;

import java.util.ArrayList;
import java.util.List;

/**
 * Product telemetry, exported as OTLP/HTTP log records to {@code OTEL_EXPORTER_OTLP_ENDPOINT/v1/logs} only when
 * that variable is set. By construction it carries identifiers, flags and counts only: an attribute value is
 * kept only if it is a boolean, an integer or a UUID; anything else (message text, URLs, paths, credentials,
 * names) is dropped before it is queued. Without an endpoint no OpenTelemetry class is loaded.
 */
public final class Telemetry {
    private static final Telemetry OFF = new Telemetry(null);

    // null when off: OtlpLogExport is the only class that touches the SDK, so it is never loaded then
    private final OtlpLogExport export;

    private Telemetry(OtlpLogExport export) {
        this.export = export;
    }

    /** Telemetry that emits nothing. */
    public static Telemetry off() {
        return OFF;
    }

    /** Enabled when {@code endpoint} is non-blank; at most 1,000 records wait, further ones are dropped. */
    public static Telemetry of(String endpoint, String apiKey, String environment, String agentId) {
        if (endpoint == null || endpoint.isBlank()) {
            return OFF;
        }
        String base = endpoint.strip().replaceAll("/+$", "");
        return new Telemetry(new OtlpLogExport(base, apiKey, environment, agentId));
    }

    /** Emits {@code event} with attributes as name, value pairs; disallowed values are dropped. */
    public void event(String event, Object... attributes) {
        if (export == null || !TelemetryAttribute.NAME.matcher(event).matches()) {
            return;
        }
        List<TelemetryAttribute> kept = new ArrayList<>(attributes.length / 2);
        for (int i = 0; i + 1 < attributes.length; i += 2) {
            TelemetryAttribute.of(attributes[i], attributes[i + 1]).ifPresent(kept::add);
        }
        export.emit(event, kept);
    }

    /** Stops exporting, sending what is queued within a short bound (records still queued then are dropped). */
    public void close() {
        if (export != null) {
            export.close();
        }
    }
}

package dev.stockade.runtime.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Product telemetry, exported as OTLP/HTTP JSON log records to {@code OTEL_EXPORTER_OTLP_ENDPOINT/v1/logs}
 * only when that variable is set. By construction it carries identifiers, flags and counts only: an
 * attribute value is kept only if it is a boolean, an integer or a UUID; anything else (message text,
 * URLs, paths, credentials, names) is dropped before it is queued.
 */
public final class Telemetry {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern EVENT = Pattern.compile("[a-z][a-z_.]{0,63}");
    private static final Telemetry OFF = new Telemetry(null, null, null, null, null);

    private final String endpoint;
    private final String apiKey;
    private final String environment;
    private final String agentId;
    private final ExecutorService exporter;
    private final HttpClient client;

    private Telemetry(String endpoint, String apiKey, String environment, String agentId, ExecutorService exporter) {
        this.endpoint = endpoint;
        this.apiKey = apiKey;
        this.environment = environment;
        this.agentId = agentId;
        this.exporter = exporter;
        this.client = endpoint == null ? null : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
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
        ExecutorService ex = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1000), r -> {
            Thread t = new Thread(r, "telemetry");
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.DiscardPolicy());
        String base = endpoint.strip().replaceAll("/+$", "");
        return new Telemetry(base, apiKey, environment, agentId, ex);
    }

    /** Emits {@code event} with attributes as name, value pairs; disallowed values are dropped. */
    public void event(String event, Object... attributes) {
        if (exporter == null || !EVENT.matcher(event).matches()) {
            return;
        }
        ObjectNode record = JSON.createObjectNode();
        record.put("timeUnixNano", Long.toString(Instant.now().toEpochMilli() * 1_000_000L));
        record.putObject("body").put("stringValue", event);
        ArrayNode attrs = record.putArray("attributes");
        for (int i = 0; i + 1 < attributes.length; i += 2) {
            ObjectNode value = allowed(attributes[i + 1]);
            if (value != null && EVENT.matcher(String.valueOf(attributes[i])).matches()) {
                attrs.addObject().put("key", String.valueOf(attributes[i])).set("value", value);
            }
        }
        exporter.execute(() -> send(record));
    }

    private static ObjectNode allowed(Object v) {
        ObjectNode n = JSON.createObjectNode();
        if (v instanceof Boolean b) {
            return n.put("boolValue", b);
        }
        if (v instanceof Integer || v instanceof Long) {
            return n.put("intValue", Long.toString(((Number) v).longValue()));
        }
        if (v instanceof String s && UUID.matcher(s).matches()) {
            return n.put("stringValue", s);
        }
        return null;
    }

    private void send(ObjectNode record) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode rl = root.putArray("resourceLogs").addObject();
        ArrayNode res = rl.putObject("resource").putArray("attributes");
        res.addObject().put("key", "service.name").putObject("value").put("stringValue", "stockade-agent-runtime");
        res.addObject().put("key", "deployment.environment").putObject("value").put("stringValue",
                environment == null || !EVENT.matcher(environment).matches() ? "unknown" : environment);
        if (agentId != null && UUID.matcher(agentId).matches()) {
            res.addObject().put("key", "agent.id").putObject("value").put("stringValue", agentId);
        }
        ObjectNode scope = rl.putArray("scopeLogs").addObject();
        scope.putObject("scope").put("name", "stockade.runtime");
        scope.putArray("logRecords").add(record);
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint + "/v1/logs"))
                    .timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(root)));
            if (apiKey != null && !apiKey.isBlank()) {
                b.header("x-api-key", apiKey);
            }
            client.send(b.build(), HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            Log.warn("telemetry.export_failed", "error", e.getClass().getSimpleName());
        }
    }

    /** Stops exporting (queued records may be dropped). */
    public void close() {
        if (exporter != null) {
            exporter.shutdown();
        }
    }
}

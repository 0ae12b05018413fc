package dev.stockade.runtime.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * LLM tracing to Langfuse ({@code LANGFUSE_SECRET_KEY} enables it), through its batch ingestion API
 * ({@code POST <LANGFUSE_BASE_URL>/api/public/ingestion}, Basic auth with the public and secret keys). A turn
 * is a trace, each model call a generation (model id, token usage, timing, failure class) and each tool run a
 * span (the tool's name, timing, whether it failed). No prompt, reply, tool input or output, document, URL or
 * credential is ever put in an event: the conversation stays in the sandbox; the trace shows its shape.
 * Events wait in a bounded queue (further ones are dropped) and leave in batches from one daemon thread.
 */
public final class Tracing implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int QUEUE = 2000;
    private static final int BATCH = 100;
    private static final Tracing OFF = new Tracing(null, null, null);

    private final URI ingestion;
    private final String authorization;
    private final String agentId;
    private final BlockingQueue<ObjectNode> queue = new ArrayBlockingQueue<>(QUEUE);
    private final HttpClient client;
    private final Thread exporter;
    private volatile boolean closed;

    private Tracing(URI ingestion, String authorization, String agentId) {
        this.ingestion = ingestion;
        this.authorization = authorization;
        this.agentId = agentId;
        this.client = ingestion == null ? null : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .build();
        this.exporter = ingestion == null ? null : new Thread(this::export, "langfuse");
        if (exporter != null) {
            exporter.setDaemon(true);
            exporter.start();
        }
    }

    /** Tracing that records nothing. */
    public static Tracing off() {
        return OFF;
    }

    /**
     * Enabled when {@code secretKey} is non-blank. A base URL that is not an absolute http(s) URL leaves
     * tracing off with one warning (the runtime still starts).
     */
    public static Tracing langfuse(String baseUrl, String publicKey, String secretKey, String agentId) {
        if (secretKey == null || secretKey.isBlank()) {
            return OFF;
        }
        URI base;
        try {
            base = URI.create(baseUrl.strip().replaceAll("/+$", "") + "/");
        } catch (IllegalArgumentException e) {
            base = null;
        }
        if (base == null || base.getHost() == null || !("http".equals(base.getScheme())
                || "https".equals(base.getScheme()))) {
            Log.warn("tracing.disabled", "reason", "LANGFUSE_BASE_URL is not an http(s) URL");
            return OFF;
        }
        String user = publicKey == null ? "" : publicKey;
        String auth = "Basic " + Base64.getEncoder().encodeToString((user + ":" + secretKey)
                .getBytes(StandardCharsets.UTF_8));
        return new Tracing(base.resolve("api/public/ingestion"), auth, agentId);
    }

    public boolean enabled() {
        return ingestion != null;
    }

    /** Starts the trace of one turn of {@code threadId}. */
    public Trace turn(String threadId) {
        return new Trace(enabled() ? UUID.randomUUID().toString() : null, threadId, Instant.now());
    }

    /** One turn's trace; each method adds an event (nothing when tracing is off). */
    public final class Trace {
        private final String id;
        private final String threadId;
        private final Instant start;

        private Trace(String id, String threadId, Instant start) {
            this.id = id;
            this.threadId = threadId;
            this.start = start;
        }

        /** A model call: the model id, tokens, its start and end, and the failure's class when it failed. */
        public void generation(String model, Instant from, long inputTokens, long outputTokens, Throwable failed) {
            if (id == null) {
                return;
            }
            ObjectNode b = observation(from, failed).put("name", "model-call").put("model", model);
            b.putObject("usageDetails").put("input", inputTokens).put("output", outputTokens);
            enqueue("generation-create", b);
        }

        /** A tool run: its name, start and end, and whether it failed. */
        public void tool(String name, Instant from, boolean error) {
            if (id == null) {
                return;
            }
            ObjectNode b = observation(from, null).put("name", "tool:" + name);
            if (error) {
                b.put("level", "ERROR");
            }
            enqueue("span-create", b);
        }

        /** The turn ended after {@code steps} model calls and {@code toolCalls} tool runs. */
        public void end(int steps, int toolCalls, boolean failed) {
            if (id == null) {
                return;
            }
            ObjectNode b = JSON.createObjectNode().put("id", id).put("name", "agent-turn")
                    .put("timestamp", start.toString()).put("sessionId", threadId);
            ObjectNode meta = b.putObject("metadata").put("steps", steps).put("toolCalls", toolCalls)
                    .put("failed", failed).put("durationMs", Duration.between(start, Instant.now()).toMillis());
            if (agentId != null) {
                meta.put("agentId", agentId);
            }
            enqueue("trace-create", b);
        }

        private ObjectNode observation(Instant from, Throwable failed) {
            ObjectNode b = JSON.createObjectNode().put("id", UUID.randomUUID().toString()).put("traceId", id)
                    .put("startTime", from.toString()).put("endTime", Instant.now().toString());
            if (failed != null) {
                b.put("level", "ERROR").put("statusMessage", failed.getClass().getSimpleName());
            }
            return b;
        }
    }

    private void enqueue(String type, ObjectNode body) {
        ObjectNode e = JSON.createObjectNode().put("id", UUID.randomUUID().toString()).put("type", type)
                .put("timestamp", Instant.now().toString());
        e.set("body", body);
        if (!closed && !queue.offer(e)) {
            Log.warn("tracing.dropped", "reason", "queue full");
        }
    }

    private void export() {
        List<ObjectNode> batch = new ArrayList<>();
        while (!closed || !queue.isEmpty()) {
            try {
                ObjectNode first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                Thread.sleep(200); // let the rest of a turn's events join the batch
                queue.drainTo(batch, BATCH - 1);
                send(batch);
            } catch (InterruptedException e) {
                closed = true;
            }
            batch.clear();
        }
    }

    private void send(List<ObjectNode> events) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode arr = root.putArray("batch");
        events.forEach(arr::add);
        try {
            HttpRequest req = HttpRequest.newBuilder(ingestion).timeout(Duration.ofSeconds(10))
                    .header("content-type", "application/json").header("authorization", authorization)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(root))).build();
            int status = client.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status >= 300) {
                Log.warn("tracing.export_refused", "status", status);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            Log.warn("tracing.export_failed", "error", e.getClass().getSimpleName());
        }
    }

    /** Sends what is queued (waiting at most two seconds), then stops. */
    @Override
    public void close() {
        if (exporter == null) {
            return;
        }
        closed = true;
        try {
            exporter.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.stockade.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * A stand-in for the LLM providers (services outside this machine) speaking their real wire formats on
 * loopback: Anthropic Messages SSE ({@code /v1/messages}), the Bedrock runtime's event-stream
 * ({@code /model/<id>/invoke-with-response-stream}, Titan {@code /model/<id>/invoke}), OpenAI Responses
 * SSE ({@code /responses}) and embeddings ({@code /embeddings}, Azure deployments). Replies are scripted;
 * every request is recorded.
 */
public final class ProviderDouble implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** A scripted reply: text and tool calls, or a failure mode. */
    public record Reply(List<Object[]> blocks, int status, boolean cut, long inputTokens) {
        /** A text answer. */
        public static Reply text(String text) {
            return new Reply(List.<Object[]>of(new Object[] {"text", text}), 200, false, 100);
        }

        /** Text (may be null) then one tool call with {@code inputJson}. */
        public static Reply tool(String text, String name, String inputJson) {
            List<Object[]> b = new ArrayList<>();
            if (text != null) {
                b.add(new Object[] {"text", text});
            }
            b.add(new Object[] {"tool", name, inputJson});
            return new Reply(b, 200, false, 100);
        }

        /** A text answer streamed as one delta per piece, with a pause between pieces ({@link #holdPieces}). */
        public static Reply pieces(String... pieces) {
            return new Reply(List.<Object[]>of(new Object[] {"text", String.join("", pieces), pieces}), 200, false, 100);
        }

        /** An HTTP error status with a JSON error body. */
        public static Reply status(int status) {
            return new Reply(List.of(), status, false, 0);
        }

        /** A stream that stops after its first text delta (no terminal event). */
        public static Reply cut(String text) {
            return new Reply(List.<Object[]>of(new Object[] {"text", text}), 200, true, 100);
        }

        public Reply withInputTokens(long n) {
            return new Reply(blocks, status, cut, n);
        }
    }

    /** One recorded request. */
    public record Call(String path, Map<String, List<String>> headers, JsonNode body, byte[] raw) {
        public String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    private final HttpServer server;
    private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    private volatile Function<Call, Reply> fallback = c -> Reply.text("ok");
    private volatile Semaphore gate;
    private volatile Semaphore pieceGate;
    private volatile int embeddingDimensions = 1024;
    private volatile int embeddingStatus = 200;
    private volatile boolean recording = true;

    public ProviderDouble() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Queues replies used in order; when none is queued, the fallback answers. */
    public ProviderDouble enqueue(Reply... rs) {
        replies.addAll(List.of(rs));
        return this;
    }

    public ProviderDouble fallback(Function<Call, Reply> f) {
        this.fallback = f;
        return this;
    }

    /** Makes chat calls wait for a permit ({@link #release}) before answering. */
    public ProviderDouble holdChats() {
        gate = new Semaphore(0);
        return this;
    }

    /** Makes a {@link Reply#pieces} stream wait for a permit ({@link #releasePiece}) before each piece after the first. */
    public ProviderDouble holdPieces() {
        pieceGate = new Semaphore(0);
        return this;
    }

    public void releasePiece() {
        pieceGate.release();
    }

    public void release(int n) {
        gate.release(n);
    }

    public ProviderDouble embeddings(int status, int dimensions) {
        this.embeddingStatus = status;
        this.embeddingDimensions = dimensions;
        return this;
    }

    /**
     * Stops keeping requests (a benchmark's double answers tens of thousands of calls; keeping each body would grow its
     * heap without bound). {@link #calls} then lists only the requests received before.
     */
    public ProviderDouble forgetCalls() {
        recording = false;
        return this;
    }

    public List<Call> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /** Chat calls only (embeddings left out). */
    public List<Call> chats() {
        return calls().stream().filter(c -> !c.path().contains("embed") && !c.path().endsWith("/invoke")).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] in = ex.getRequestBody().readAllBytes();
            String path = ex.getRequestURI().getPath();
            Call call = new Call(ex.getRequestURI().toString(), Map.copyOf(ex.getRequestHeaders()),
                    in.length == 0 ? JSON.createObjectNode() : JSON.readTree(in), in);
            if (recording) {
                calls.add(call);
            }
            if (path.endsWith("/embeddings") || path.endsWith("/invoke")) {
                embeddings(ex, path.endsWith("/invoke"));
                return;
            }
            Semaphore g = gate;
            if (g != null && !g.tryAcquire(30, TimeUnit.SECONDS)) {
                ex.sendResponseHeaders(504, -1);
                return;
            }
            Reply r = replies.poll();
            r = r != null ? r : fallback.apply(call);
            if (r.status() != 200) {
                byte[] err = ("{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}")
                        .getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("content-type", "application/json");
                ex.sendResponseHeaders(r.status(), err.length);
                ex.getResponseBody().write(err);
            } else if (path.endsWith("/responses")) {
                sse(ex, OpenAiEvents.events(r, call), null);
            } else if (path.endsWith("/invoke-with-response-stream")) {
                eventStream(ex, AnthropicEvents.events(r, call), r.cut());
            } else {
                sse(ex, AnthropicEvents.events(r, call), pieceGate);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void embeddings(HttpExchange ex, boolean titan) throws IOException {
        if (embeddingStatus != 200) {
            byte[] err = "{\"error\":{\"code\":\"DeploymentNotFound\"}}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(embeddingStatus, err.length);
            ex.getResponseBody().write(err);
            return;
        }
        ArrayNode vec = JSON.createArrayNode();
        for (int i = 0; i < embeddingDimensions; i++) {
            vec.add(Math.sin(i + 1.0));
        }
        ObjectNode out = JSON.createObjectNode();
        if (titan) {
            out.set("embedding", vec);
            out.put("inputTextTokenCount", 3);
        } else {
            out.put("object", "list").put("model", "text-embedding-3-small");
            out.putArray("data").addObject().put("object", "embedding").put("index", 0).set("embedding", vec);
            out.putObject("usage").put("prompt_tokens", 3).put("total_tokens", 3);
        }
        byte[] b = JSON.writeValueAsBytes(out);
        ex.getResponseHeaders().set("content-type", "application/json");
        ex.sendResponseHeaders(200, b.length);
        ex.getResponseBody().write(b);
    }

    /**
     * Writes SSE events; a {@code null} entry means: abort here without a terminal event; a {@link AnthropicEvents#PAUSE}
     * entry waits for a permit of {@code pieces} when it is set.
     */
    private static void sse(HttpExchange ex, List<String[]> events, Semaphore pieces) throws IOException,
            InterruptedException {
        ex.getResponseHeaders().set("content-type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        for (String[] e : events) {
            if (e == null) {
                out.flush();
                return;
            }
            if (e == AnthropicEvents.PAUSE) {
                if (pieces != null && !pieces.tryAcquire(30, TimeUnit.SECONDS)) {
                    return;
                }
                continue;
            }
            out.write(("event: " + e[0] + "\ndata: " + e[1] + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    private static void eventStream(HttpExchange ex, List<String[]> events, boolean cut) throws IOException {
        ex.getResponseHeaders().set("content-type", "application/vnd.amazon.eventstream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        for (String[] e : events) {
            if (e == null) {
                return;
            }
            if (e == AnthropicEvents.PAUSE) {
                continue;
            }
            String bytes = Base64.getEncoder().encodeToString(e[1].getBytes(StandardCharsets.UTF_8));
            byte[] payload = ("{\"bytes\":\"" + bytes + "\"}").getBytes(StandardCharsets.UTF_8);
            Map<String, HeaderValue> h = new java.util.LinkedHashMap<>();
            h.put(":event-type", HeaderValue.fromString("chunk"));
            h.put(":content-type", HeaderValue.fromString("application/json"));
            h.put(":message-type", HeaderValue.fromString("event"));
            ByteArrayOutputStream frame = new ByteArrayOutputStream();
            new Message(h, payload).encode(frame);
            out.write(frame.toByteArray());
            out.flush();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A model provider outside this machine, as its wire formats say it answers: Anthropic Messages (at Azure Foundry's
 * {@code /anthropic/v1/messages}) and OpenAI Chat Completions ({@code /v1/chat/completions} and Foundry's
 * {@code /openai/v1/chat/completions}), whole or as server-sent events with usage where each format puts it. It
 * records every request it received (path, headers, body) and can end a stream in each way a real one ends.
 */
final class ProviderDouble implements AutoCloseable {
    /** How the next streams end. */
    enum Ending { COMPLETE, CUT_BEFORE_TERMINAL, HOLD_OPEN }

    record Received(String path, Map<String, List<String>> headers, JsonNode body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).findFirst().orElse(null);
        }
    }

    static final long INPUT = 1000;
    static final long OUTPUT = 500;
    private static final ObjectMapper JSON = new ObjectMapper();

    final List<Received> received = new CopyOnWriteArrayList<>();
    volatile Ending ending = Ending.COMPLETE;
    /** Counted down when a held stream has sent its first events (the caller is reading it). */
    volatile CountDownLatch streaming = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final HttpServer server;

    ProviderDouble() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
            received.add(new Received(ex.getRequestURI().getPath(), Map.copyOf(ex.getRequestHeaders()), body));
            String path = ex.getRequestURI().getPath();
            boolean stream = body.path("stream").asBoolean(false);
            if (path.endsWith("/messages")) {
                if (stream) {
                    anthropicStream(ex, body);
                } else {
                    json(ex, anthropicMessage(body));
                }
            } else if (path.endsWith("/chat/completions")) {
                if (stream) {
                    chatStream(ex, body);
                } else {
                    json(ex, chatCompletion(body));
                }
            } else {
                ex.sendResponseHeaders(404, -1);
            }
        }
    }

    private static String anthropicMessage(JsonNode req) {
        return "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + req.path("model").asText()
                + "\",\"content\":[{\"type\":\"text\",\"text\":\"Hello from the double\"}],\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + INPUT + ",\"output_tokens\":" + OUTPUT
                + ",\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0}}";
    }

    private void anthropicStream(HttpExchange ex, JsonNode req) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        event(out, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\"" + req.path("model").asText() + "\",\"content\":[],"
                + "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + INPUT
                + ",\"output_tokens\":1}}}");
        event(out, "content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
        event(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello \"}}");
        if (hold(out) || ending == Ending.CUT_BEFORE_TERMINAL) {
            return; // a clean end of the body without message_stop
        }
        event(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"from the double\"}}");
        event(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
        event(out, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + OUTPUT + "}}");
        event(out, "message_stop", "{\"type\":\"message_stop\"}");
    }

    private static String chatCompletion(JsonNode req) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"" + req.path("model").asText()
                + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello from the double\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":" + INPUT + ",\"completion_tokens\":" + OUTPUT
                + ",\"total_tokens\":" + (INPUT + OUTPUT) + "}}";
    }

    private void chatStream(HttpExchange ex, JsonNode req) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        String model = req.path("model").asText();
        data(out, chunk(model, "{\"role\":\"assistant\",\"content\":\"Hello \"}", null));
        if (hold(out) || ending == Ending.CUT_BEFORE_TERMINAL) {
            return;
        }
        data(out, chunk(model, "{\"content\":\"from the double\"}", "\"stop\""));
        if (req.path("stream_options").path("include_usage").asBoolean(false)) {
            data(out, "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + model
                    + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":" + INPUT + ",\"completion_tokens\":" + OUTPUT
                    + ",\"total_tokens\":" + (INPUT + OUTPUT) + "}}");
        }
        data(out, "[DONE]");
    }

    private static String chunk(String model, String delta, String finish) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + model
                + "\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finish + "}],"
                + "\"usage\":null}";
    }

    /** With {@link Ending#HOLD_OPEN}: signals that the stream is being read, then waits until {@link #close}. */
    private boolean hold(OutputStream out) throws IOException {
        if (ending != Ending.HOLD_OPEN) {
            return false;
        }
        out.flush();
        streaming.countDown();
        try {
            release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    private static void event(OutputStream out, String name, String data) throws IOException {
        out.write(("event: " + name + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void data(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void json(HttpExchange ex, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}

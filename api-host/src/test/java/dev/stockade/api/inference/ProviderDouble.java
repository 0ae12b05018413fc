package dev.stockade.api.inference;

import static dev.stockade.api.inference.EchoText.quoted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A model provider outside this machine, as its wire formats say it answers: Anthropic Messages (at Azure Foundry's
 * {@code /anthropic/v1/messages}), OpenAI Chat Completions ({@code /v1/chat/completions} and Foundry's
 * {@code /openai/v1/chat/completions}) and OpenAI Responses ({@code /v1/responses}), whole or as server-sent events
 * with usage where each format puts it. It records every request it received (path, headers, body, the bytes as
 * they came) and can end a stream in each way a real one ends. In {@link #echo} mode it answers with the text of
 * the last message it received, streamed a few characters per event as a model streams tokens, so a test sees what
 * the backend was sent come back.
 */
final class ProviderDouble implements AutoCloseable {
    /** How the next streams end. */
    enum Ending { COMPLETE, CUT_BEFORE_TERMINAL, HOLD_OPEN }

    record Received(String path, Map<String, List<String>> headers, JsonNode body, String raw) {
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
    /**
     * What the next Anthropic answers report beside their input and output, as the API does: prompt-cache reads and
     * writes ({@code cache_creation} splits the writes by lifetime) and server-side web searches.
     */
    volatile long cacheRead;
    volatile long cacheWrite;
    volatile long cacheWrite1h;
    volatile long webSearches;
    /** Answer with the last message's text instead of the fixed greeting. */
    volatile boolean echo;
    /**
     * Whether the answer's text comes as text, inside a tool call's input, as thinking (Anthropic, Chat), or as a
     * text that cites the request's document (whole Anthropic answers).
     */
    volatile ToolAnswers.Reply reply = ToolAnswers.Reply.TEXT;
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
            byte[] bytes = ex.getRequestBody().readAllBytes();
            JsonNode body = JSON.readTree(bytes);
            received.add(new Received(ex.getRequestURI().getPath(), Map.copyOf(ex.getRequestHeaders()), body,
                    new String(bytes, StandardCharsets.UTF_8)));
            String path = ex.getRequestURI().getPath();
            boolean stream = body.path("stream").asBoolean(false);
            if (path.endsWith("/messages")) {
                if (stream) {
                    anthropicStream(ex, body);
                } else {
                    json(ex, anthropicMessage(body));
                }
            } else if (path.endsWith("/responses")) {
                if (stream) {
                    responsesStream(ex, body);
                } else {
                    json(ex, response(body, true));
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

    private String anthropicMessage(JsonNode req) {
        return "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + req.path("model").asText()
                + "\",\"content\":" + (reply == ToolAnswers.Reply.CITED ? ToolAnswers.anthropicCited(req)
                : ToolAnswers.anthropicContent(reply, answer(req))) + ","
                + "\"stop_reason\":\"" + stopReason() + "\","
                + "\"stop_sequence\":null,\"usage\":" + anthropicUsage(OUTPUT, true) + "}";
    }

    private String stopReason() {
        return reply == ToolAnswers.Reply.TEXT || reply == ToolAnswers.Reply.CITED ? "end_turn" : "tool_use";
    }

    /** Anthropic's usage object: the input with the cache counts, and the searches where the answer ends. */
    private String anthropicUsage(long output, boolean last) {
        return "{\"input_tokens\":" + INPUT + ",\"output_tokens\":" + output + ",\"cache_creation_input_tokens\":"
                + cacheWrite + ",\"cache_read_input_tokens\":" + cacheRead + ",\"cache_creation\":"
                + "{\"ephemeral_5m_input_tokens\":" + (cacheWrite - cacheWrite1h) + ",\"ephemeral_1h_input_tokens\":"
                + cacheWrite1h + "}" + (last ? ",\"server_tool_use\":{\"web_search_requests\":" + webSearches + "}"
                : "") + "}";
    }

    private void anthropicStream(HttpExchange ex, JsonNode req) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        event(out, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\"" + req.path("model").asText() + "\",\"content\":[],"
                + "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":" + anthropicUsage(1, false) + "}}");
        List<SseEvent> blocks = anthropicBlocks(req);
        event(out, blocks.get(0).name(), blocks.get(0).data());
        event(out, blocks.get(1).name(), blocks.get(1).data());
        if (hold(out) || ending == Ending.CUT_BEFORE_TERMINAL) {
            return; // a clean end of the body without message_stop
        }
        for (SseEvent e : blocks.subList(2, blocks.size())) {
            event(out, e.name(), e.data());
        }
        event(out, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + stopReason() + "\","
                + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + OUTPUT
                + ",\"server_tool_use\":{\"web_search_requests\":" + webSearches + "}}}");
        event(out, "message_stop", "{\"type\":\"message_stop\"}");
    }

    /** One server-sent event: its name and its data line. */
    private record SseEvent(String name, String data) {
    }

    /** The events of the answer's content blocks: each block's start, its deltas, its stop. */
    private List<SseEvent> anthropicBlocks(JsonNode req) {
        List<SseEvent> events = new ArrayList<>();
        List<ToolAnswers.StreamedBlock> blocks = ToolAnswers.anthropicBlocks(reply, answer(req), this::pieces);
        for (int i = 0; i < blocks.size(); i++) {
            events.add(new SseEvent("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + i
                    + ",\"content_block\":" + blocks.get(i).start() + "}"));
            for (String delta : blocks.get(i).deltas()) {
                events.add(new SseEvent("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + i
                        + ",\"delta\":" + delta + "}"));
            }
            events.add(new SseEvent("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + i
                    + "}"));
        }
        return events;
    }

    private String chatCompletion(JsonNode req) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"" + req.path("model").asText()
                + "\",\"choices\":[{\"index\":0,\"message\":" + ToolAnswers.chatMessage(reply, answer(req)) + ","
                + "\"finish_reason\":\"" + ToolAnswers.chatFinish(reply) + "\"}],\"usage\":{\"prompt_tokens\":" + INPUT
                + ",\"completion_tokens\":" + OUTPUT + ",\"total_tokens\":" + (INPUT + OUTPUT) + "}}";
    }

    private void chatStream(HttpExchange ex, JsonNode req) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        String model = req.path("model").asText();
        List<String> pieces = pieces(ToolAnswers.streamed(reply, answer(req)));
        data(out, chunk(model, ToolAnswers.chatDelta(reply, pieces.get(0), true), null));
        if (hold(out) || ending == Ending.CUT_BEFORE_TERMINAL) {
            return;
        }
        for (String piece : pieces.subList(1, pieces.size())) {
            data(out, chunk(model, ToolAnswers.chatDelta(reply, piece, false), null));
        }
        data(out, chunk(model, "{}", "\"" + ToolAnswers.chatFinish(reply) + "\""));
        if (req.path("stream_options").path("include_usage").asBoolean(false)) {
            data(out, "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + model
                    + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":" + INPUT + ",\"completion_tokens\":" + OUTPUT
                    + ",\"total_tokens\":" + (INPUT + OUTPUT) + "}}");
        }
        data(out, "[DONE]");
    }

    /**
     * A Responses answer: one message item with one output text part, as a whole answer and
     * {@code response.completed} carry it; while it is in progress it has no output and no usage yet.
     */
    private String response(JsonNode req, boolean completed) {
        String usage = "{\"input_tokens\":" + INPUT + ",\"input_tokens_details\":{\"cached_tokens\":0},"
                + "\"output_tokens\":" + OUTPUT + ",\"output_tokens_details\":{\"reasoning_tokens\":0},"
                + "\"total_tokens\":" + (INPUT + OUTPUT) + "}";
        return "{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1,\"status\":\""
                + (completed ? "completed" : "in_progress") + "\",\"error\":null,\"incomplete_details\":null,"
                + "\"instructions\":null,\"metadata\":{},\"model\":\"" + req.path("model").asText() + "\",\"output\":["
                + (completed ? item(req) : "") + "],\"parallel_tool_calls\":true,\"temperature\":1.0,"
                + "\"tool_choice\":\"auto\",\"tools\":[],\"top_p\":1.0,\"usage\":" + (completed ? usage : "null") + "}";
    }

    private String item(JsonNode req) {
        return "{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\","
                + "\"content\":[" + outputText(answer(req)) + "]}";
    }

    private static String outputText(String text) {
        return "{\"type\":\"output_text\",\"text\":" + quoted(text) + ",\"annotations\":[],\"logprobs\":[]}";
    }

    /** A Responses stream: the text in deltas of a few characters, then every event that repeats it whole. */
    private void responsesStream(HttpExchange ex, JsonNode req) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        String ids = "\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,";
        int seq = 0;
        event(out, "response.created", "{\"type\":\"response.created\",\"sequence_number\":" + seq++
                + ",\"response\":" + response(req, false) + "}");
        for (String piece : pieces(answer(req))) {
            event(out, "response.output_text.delta", "{\"type\":\"response.output_text.delta\"," + ids
                    + "\"delta\":" + quoted(piece) + ",\"logprobs\":[],\"sequence_number\":" + seq++ + "}");
        }
        event(out, "response.output_text.done", "{\"type\":\"response.output_text.done\"," + ids + "\"text\":"
                + quoted(answer(req)) + ",\"logprobs\":[],\"sequence_number\":" + seq++ + "}");
        event(out, "response.content_part.done", "{\"type\":\"response.content_part.done\"," + ids + "\"part\":"
                + outputText(answer(req)) + ",\"sequence_number\":" + seq++ + "}");
        event(out, "response.output_item.done", "{\"type\":\"response.output_item.done\",\"output_index\":0,"
                + "\"item\":" + item(req) + ",\"sequence_number\":" + seq++ + "}");
        event(out, "response.completed", "{\"type\":\"response.completed\",\"sequence_number\":" + seq
                + ",\"response\":" + response(req, true) + "}");
    }

    private static String chunk(String model, String delta, String finish) {
        return "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + model
                + "\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finish + "}],"
                + "\"usage\":null}";
    }

    /** The answer's text: the fixed greeting, or in echo mode the text of the last message received. */
    private String answer(JsonNode req) {
        if (!echo) {
            return "Hello from the double";
        }
        if (req.path("input").isTextual()) {
            return req.get("input").asText(); // a Responses call with its input as one string
        }
        JsonNode messages = req.has("input") ? req.path("input") : req.path("messages");
        return EchoText.lastMessage(messages);
    }

    /**
     * The greeting in its two usual pieces; an echo in pieces of five characters, as a model streams tokens, so a
     * placeholder in it is split across events.
     */
    private List<String> pieces(String text) {
        if (!echo) {
            return List.of("Hello ", "from the double");
        }
        return EchoText.fives(text);
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

    /** A started double; a port it cannot bind is a test failure, not a checked exception. */
    static ProviderDouble start() {
        try {
            return new ProviderDouble();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}

package dev.stockade.api.inference;

import static dev.stockade.api.inference.EchoText.quoted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/**
 * The Bedrock runtime as its wire says it answers (research/inference-wire-formats.md): InvokeModel with an
 * Anthropic body and the {@code X-Amzn-Bedrock-*-Token-Count} headers, InvokeModelWithResponseStream and
 * ConverseStream as AWS event-stream frames (encoded with AWS's own codec), Converse as JSON with its usage. In
 * {@link #echo} mode it answers with the text it was sent, a few characters per delta frame. It records what it
 * received and, when given the credentials, checks a SigV4 signature as AWS would ({@link SigV4Check}).
 */
final class BedrockDouble implements AutoCloseable {
    /** How the next streams end: whole, or cleanly on a frame boundary before the final event. */
    enum Ending { COMPLETE, CUT_BEFORE_TERMINAL, WAIT_FOR_READER }

    /** One request as it arrived: raw path, headers, body, and the signature check's verdict (null: not checked). */
    record Received(String rawPath, Map<String, List<String>> headers, byte[] body, String signatureProblem) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).findFirst().orElse(null);
        }
    }

    static final long INPUT = 1000;
    static final long OUTPUT = 500;
    static final String TEXT = "Hello from Bedrock";
    private static final ObjectMapper JSON = new ObjectMapper();

    final List<Received> received = new CopyOnWriteArrayList<>();
    volatile Ending ending = Ending.COMPLETE;
    /** When set, every request's SigV4 signature is recomputed with these credentials and compared. */
    volatile SigV4Check signatures;
    /** With {@link Ending#WAIT_FOR_READER}: the caller counts it down when the first frames reached it. */
    volatile CountDownLatch firstFramesRead = new CountDownLatch(1);
    /** With {@link Ending#WAIT_FOR_READER}: whether the caller read the first frames before the rest was sent. */
    volatile boolean readBeforeTheRest;
    /**
     * Answer with the text of the last message received instead of {@link #TEXT}, streamed five characters per
     * delta as a model streams tokens, so a placeholder in it is split across frames.
     */
    volatile boolean echo;
    /** Converse answers with a tool call whose input holds the text, streamed as fragments of the input's JSON. */
    volatile boolean toolUse;
    /**
     * Converse answers with a tool-use turn that reasons first: signed reasoning, text and a tool call, each holding
     * the text; streamed, each block in pieces of five characters, the reasoning's signature in a delta of its own.
     */
    volatile boolean reasoning;
    /** Converse answers with a cited text: one {@code citationsContent} block quoting the request's document whole. */
    volatile boolean citations;
    private final HttpServer server;

    BedrockDouble() throws IOException {
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
            byte[] body = ex.getRequestBody().readAllBytes();
            String raw = ex.getRequestURI().getRawPath();
            SigV4Check check = signatures;
            String problem = check == null ? null : check.problem(baseUrl(), raw, ex.getRequestHeaders(), body);
            received.add(new Received(raw, Map.copyOf(ex.getRequestHeaders()), body, problem));
            if (problem != null) {
                json(ex, 403, "{\"message\":\"The request signature we calculated does not match\"}", Map.of(
                        "x-amzn-errortype", "InvalidSignatureException"));
                return;
            }
            String operation = raw.substring(raw.lastIndexOf('/') + 1);
            String text = answer(body);
            switch (operation) {
                case "invoke" -> json(ex, 200, anthropicMessage(text), Map.of(
                        "X-Amzn-Bedrock-Input-Token-Count", String.valueOf(INPUT),
                        "X-Amzn-Bedrock-Output-Token-Count", String.valueOf(OUTPUT),
                        "X-Amzn-Bedrock-Invocation-Latency", "321"));
                case "invoke-with-response-stream" -> frames(ex, invokeFrames(pieces(text)), 3);
                case "converse" -> json(ex, 200, citations ? cited(body) : converse(text), Map.of());
                case "converse-stream" -> frames(ex, reasoning ? reasoningFrames(text) : converseFrames(text), 2);
                default -> ex.sendResponseHeaders(404, -1);
            }
        }
    }

    /** The answer's text: {@link #TEXT}, or in echo mode the text of the last message (InvokeModel or Converse). */
    private String answer(byte[] body) throws IOException {
        if (!echo) {
            return TEXT;
        }
        JsonNode messages = JSON.readTree(body).path("messages");
        return EchoText.lastMessage(messages);
    }

    /** {@link #TEXT} in its two usual pieces; an echo in pieces of five characters. */
    private List<String> pieces(String text) {
        if (!echo) {
            return List.of("Hello ", "from Bedrock");
        }
        return EchoText.fives(text);
    }



    private static String anthropicMessage(String text) {
        return "{\"id\":\"msg_bdrk_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
                + "\"claude-haiku-4-5-20251001\",\"content\":[{\"type\":\"text\",\"text\":" + quoted(text) + "}],"
                + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + INPUT
                + ",\"output_tokens\":" + OUTPUT + "}}";
    }

    private String converse(String text) {
        String call = "{\"toolUse\":{\"toolUseId\":\"tooluse_1\",\"name\":\"" + ToolAnswers.TOOL + "\",\"input\":"
                + ToolAnswers.input(text) + "}}";
        String block = toolUse ? call : "{\"text\":" + quoted(text) + "}";
        if (reasoning) {
            block = "{\"reasoningContent\":{\"reasoningText\":{\"text\":" + quoted(text) + ",\"signature\":\""
                    + ToolAnswers.SIGNATURE + "\"}}},{\"text\":" + quoted(text) + "}," + call;
        }
        return "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[" + block + "]}},"
                + "\"stopReason\":\"" + stopReason() + "\",\"usage\":{\"inputTokens\":" + INPUT + ",\"outputTokens\":"
                + OUTPUT + ",\"totalTokens\":" + (INPUT + OUTPUT) + "},\"metrics\":{\"latencyMs\":321}}";
    }

    /**
     * A Converse answer that cites the first document of the request whole, as Converse writes a citation of a text
     * document: the generated text, and one citation with the document's name as its title, the quoted source text
     * and a character location over the text Bedrock was sent.
     */
    private static String cited(byte[] body) throws IOException {
        JsonNode document = null;
        for (JsonNode message : JSON.readTree(body).path("messages")) {
            for (JsonNode block : message.path("content")) {
                document = document == null && block.has("document") ? block.get("document") : document;
            }
        }
        if (document == null) {
            throw new IllegalArgumentException("a cited answer needs a document in the request");
        }
        String text = quoted(document.path("source").path("text").asText());
        return "{\"output\":{\"message\":{\"role\":\"assistant\",\"content\":[{\"citationsContent\":{\"content\":"
                + "[{\"text\":" + text + "}],\"citations\":[{\"title\":" + quoted(document.path("name").asText())
                + ",\"sourceContent\":[{\"text\":" + text + "}],\"location\":{\"documentChar\":{\"documentIndex\":0,"
                + "\"start\":0,\"end\":" + document.path("source").path("text").asText().length() + "}}}]}}]}},"
                + "\"stopReason\":\"end_turn\",\"usage\":{\"inputTokens\":" + INPUT + ",\"outputTokens\":" + OUTPUT
                + ",\"totalTokens\":" + (INPUT + OUTPUT) + "},\"metrics\":{\"latencyMs\":321}}";
    }

    /** Anthropic stream events in {@code chunk} frames; the last carries Bedrock's invocation metrics. */
    private List<byte[]> invokeFrames(List<String> pieces) {
        List<String> events = new java.util.ArrayList<>(List.of(
                "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_bdrk_1\",\"type\":\"message\",\"role\":"
                        + "\"assistant\",\"model\":\"claude-haiku-4-5-20251001\",\"content\":[],\"stop_reason\":null,"
                        + "\"usage\":{\"input_tokens\":" + INPUT + ",\"output_tokens\":1}}}",
                "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
                textDelta(pieces.get(0))));
        if (ending != Ending.CUT_BEFORE_TERMINAL) {
            pieces.subList(1, pieces.size()).forEach(piece -> events.add(textDelta(piece)));
            events.addAll(List.of(
                    "{\"type\":\"content_block_stop\",\"index\":0}",
                    "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":"
                            + OUTPUT + "}}",
                    "{\"type\":\"message_stop\",\"amazon-bedrock-invocationMetrics\":{\"inputTokenCount\":" + INPUT
                            + ",\"outputTokenCount\":" + OUTPUT + ",\"invocationLatency\":321,\"firstByteLatency\":99}}"));
        }
        return events.stream().map(e -> frame("chunk", "{\"bytes\":\"" + Base64.getEncoder().encodeToString(
                e.getBytes(StandardCharsets.UTF_8)) + "\",\"p\":\"abcdefgh\"}")).toList();
    }

    private static String textDelta(String piece) {
        return "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":"
                + quoted(piece) + "}}";
    }

    private List<byte[]> converseFrames(String text) {
        List<String> pieces = pieces(toolUse ? ToolAnswers.input(text) : text);
        List<byte[]> out = new java.util.ArrayList<>(List.of(frame("messageStart",
                "{\"p\":\"abcd\",\"role\":\"assistant\"}")));
        if (toolUse) {
            out.add(frame("contentBlockStart", "{\"contentBlockIndex\":0,\"start\":{\"toolUse\":{\"toolUseId\":"
                    + "\"tooluse_1\",\"name\":\"" + ToolAnswers.TOOL + "\"}},\"p\":\"ab\"}"));
        }
        out.add(frame("contentBlockDelta", converseDelta(pieces.get(0), ",\"p\":\"ab\"")));
        if (ending != Ending.CUT_BEFORE_TERMINAL) {
            pieces.subList(1, pieces.size()).forEach(piece -> out.add(frame("contentBlockDelta",
                    converseDelta(piece, ""))));
            out.addAll(List.of(
                    frame("contentBlockStop", "{\"contentBlockIndex\":0,\"p\":\"abc\"}"),
                    frame("messageStop", "{\"p\":\"abcdef\",\"stopReason\":\"" + stopReason() + "\"}"),
                    frame("metadata", "{\"metrics\":{\"latencyMs\":321},\"p\":\"ab\",\"usage\":{\"inputTokens\":"
                            + INPUT + ",\"outputTokens\":" + OUTPUT + ",\"totalTokens\":" + (INPUT + OUTPUT) + "}}")));
        }
        return out;
    }

    /** The frames of a reasoning turn: the signed reasoning (block 0), the text (1), the tool call (2). */
    private List<byte[]> reasoningFrames(String text) {
        List<byte[]> out = new java.util.ArrayList<>(List.of(frame("messageStart", "{\"role\":\"assistant\"}")));
        pieces(text).forEach(p -> out.add(delta(0, "{\"reasoningContent\":{\"text\":" + quoted(p) + "}}")));
        out.add(delta(0, "{\"reasoningContent\":{\"signature\":\"" + ToolAnswers.SIGNATURE + "\"}}"));
        out.add(frame("contentBlockStop", "{\"contentBlockIndex\":0}"));
        pieces(text).forEach(p -> out.add(delta(1, "{\"text\":" + quoted(p) + "}")));
        out.add(frame("contentBlockStop", "{\"contentBlockIndex\":1}"));
        out.add(frame("contentBlockStart", "{\"contentBlockIndex\":2,\"start\":{\"toolUse\":{\"toolUseId\":"
                + "\"tooluse_1\",\"name\":\"" + ToolAnswers.TOOL + "\"}}}"));
        pieces(ToolAnswers.input(text)).forEach(p -> out.add(delta(2, "{\"toolUse\":{\"input\":" + quoted(p)
                + "}}")));
        out.addAll(List.of(frame("contentBlockStop", "{\"contentBlockIndex\":2}"),
                frame("messageStop", "{\"stopReason\":\"tool_use\"}"),
                frame("metadata", "{\"metrics\":{\"latencyMs\":321},\"usage\":{\"inputTokens\":" + INPUT
                        + ",\"outputTokens\":" + OUTPUT + ",\"totalTokens\":" + (INPUT + OUTPUT) + "}}")));
        return out;
    }

    private static byte[] delta(int index, String delta) {
        return frame("contentBlockDelta", "{\"contentBlockIndex\":" + index + ",\"delta\":" + delta + "}");
    }

    private String converseDelta(String piece, String padding) {
        String delta = toolUse ? "{\"toolUse\":{\"input\":" + quoted(piece) + "}}"
                : "{\"text\":" + quoted(piece) + "}";
        return "{\"contentBlockIndex\":0,\"delta\":" + delta + padding + "}";
    }

    private String stopReason() {
        return toolUse || reasoning ? "tool_use" : "end_turn";
    }

    private static byte[] frame(String eventType, String json) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":event-type", HeaderValue.fromString(eventType));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString("event"));
        ByteBuffer buffer = new Message(headers, json.getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /**
     * Each frame written and flushed on its own, as Bedrock sends them while the model generates; with
     * {@link Ending#WAIT_FOR_READER} the frames after the first {@code head} wait until the caller has read those.
     */
    private void frames(HttpExchange ex, List<byte[]> frames, int head) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "application/vnd.amazon.eventstream");
        ex.getResponseHeaders().add("X-Amzn-Bedrock-Content-Type", "application/json");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        for (int i = 0; i < frames.size(); i++) {
            if (i == head && ending == Ending.WAIT_FOR_READER) {
                readBeforeTheRest = await(firstFramesRead);
            }
            out.write(frames.get(i));
            out.flush();
        }
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void json(HttpExchange ex, int status, String body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        headers.forEach(ex.getResponseHeaders()::add);
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    /** A started double; a port it cannot bind is a test failure, not a checked exception. */
    static BedrockDouble start() {
        try {
            return new BedrockDouble();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

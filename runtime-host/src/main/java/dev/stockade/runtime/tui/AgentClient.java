package dev.stockade.runtime.tui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.runtime.config.Redaction;
import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.json.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime's HTTP API as the terminal uses it (docs/runtime.md, "HTTP endpoints"): the TUI is a client on a
 * person's machine and knows nothing of the agent's insides. Answers come back as records; every failure as one
 * {@link RuntimeUnavailable} line.
 */
final class AgentClient {
    /** Commands such as /compact run a model call; the runtime retries a provider for well under this. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(300);
    private static final int MAX_PROBLEM_BYTES = 64 * 1024;

    /** The agent's settings the terminal shows and changes; a model override is null when unset. */
    record Profile(String name, String modelId, String heartbeatModelId, String cronModelId, boolean verbose,
            boolean lockedIn) {
        /** The override of a model slot ({@link Command#MODEL}, heartbeat or cron). */
        String model(Command slot) {
            return switch (slot) {
                case HEARTBEAT_MODEL -> heartbeatModelId;
                case CRON_MODEL -> cronModelId;
                default -> modelId;
            };
        }
    }

    /** A thread of the recents list. */
    record ThreadSummary(String id, String title) {
    }

    /** A stored message; {@code role} is user, assistant, tool_use, tool_result or notice. */
    record StoredMessage(String role, String content, boolean internal) {
    }

    private final String base;
    private final HttpClient http;

    private AgentClient(String base) {
        this.base = base;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** A client of the runtime at {@code url}; refuses anything but an http(s) URL with a host. */
    static AgentClient of(String url) {
        URI u;
        try {
            u = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            u = null;
        }
        if (u == null || u.getHost() == null || !("http".equals(u.getScheme()) || "https".equals(u.getScheme()))
                || u.getRawQuery() != null || u.getRawFragment() != null) {
            throw new IllegalArgumentException("`" + Redaction.urls(url) + "` is not an http:// or https:// URL with a "
                    + "host");
        }
        return new AgentClient(url.strip().replaceAll("/+$", ""));
    }

    /** The URL as it may be printed: user information hidden. */
    String shown() {
        return Redaction.urls(base);
    }

    Profile profile() throws RuntimeUnavailable {
        return profileOf(call(request("/agents/profile").GET()));
    }

    List<ThreadSummary> threads() throws RuntimeUnavailable {
        List<ThreadSummary> out = new ArrayList<>();
        for (JsonNode t : call(request("/agents/threads").GET()).path("threads")) {
            out.add(new ThreadSummary(t.path("id").asText(), t.path("title").asText()));
        }
        return out;
    }

    String createThread(String title) throws RuntimeUnavailable {
        return call(request("/agents/threads").POST(body(JsonNodeFactory.instance.objectNode().put("title", title))))
                .path("id").asText();
    }

    List<StoredMessage> messages(String threadId) throws RuntimeUnavailable {
        List<StoredMessage> out = new ArrayList<>();
        for (JsonNode m : call(request("/agents/threads/" + threadId + "/messages").GET()).path("messages")) {
            out.add(new StoredMessage(m.path("role").asText(), m.path("content").asText(),
                    m.path("internal").asBoolean()));
        }
        return out;
    }

    /** The runtime's own slash command (/model, /heartbeat-model, /cron-model: no id clears) in a thread. */
    Profile setModel(String threadId, Command slot, String model) throws RuntimeUnavailable {
        return profileOf(command(threadId, slot.word() + (model == null ? "" : " " + model)));
    }

    /** Runs /compact; whether older messages were folded into the summary. */
    boolean compact(String threadId) throws RuntimeUnavailable {
        return command(threadId, Command.COMPACT.word()).path("compacted").asBoolean();
    }

    Profile setLocked(boolean on) throws RuntimeUnavailable {
        return profileOf(call(request("/agents/locked-in").method("PATCH",
                body(JsonNodeFactory.instance.objectNode().put("lockedIn", on)))));
    }

    Profile setVerbose(boolean on) throws RuntimeUnavailable {
        return profileOf(call(request("/agents/verbose").method("PATCH",
                body(JsonNodeFactory.instance.objectNode().put("verbose", on)))));
    }

    /** Starts a turn over {@code text} and follows its events as they arrive. */
    ReplyStream say(String threadId, String text) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/agents/threads/" + threadId + "/messages"))
                .header("accept", "text/event-stream").header("content-type", "application/json")
                .POST(body(JsonNodeFactory.instance.objectNode().put("text", text))).build();
        return ReplyStream.start(() -> openStream(req));
    }

    private InputStream openStream(HttpRequest req) throws RuntimeUnavailable {
        HttpResponse<InputStream> r = send(req, HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() == 200 && r.headers().firstValue("content-type").orElse("").startsWith("text/event-stream")) {
            return r.body();
        }
        try (InputStream in = r.body()) {
            throw refusal(r.statusCode(), in.readNBytes(MAX_PROBLEM_BYTES));
        } catch (IOException e) {
            throw unreachable(e);
        }
    }

    private ObjectNode command(String threadId, String text) throws RuntimeUnavailable {
        return call(request("/agents/threads/" + threadId + "/messages")
                .POST(body(JsonNodeFactory.instance.objectNode().put("text", text))));
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(CALL_TIMEOUT)
                .header("accept", "application/json").header("content-type", "application/json");
    }

    private static HttpRequest.BodyPublisher body(ObjectNode json) {
        return HttpRequest.BodyPublishers.ofString(json.toString());
    }

    private ObjectNode call(HttpRequest.Builder req) throws RuntimeUnavailable {
        HttpResponse<byte[]> r = send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() / 100 != 2) {
            throw refusal(r.statusCode(), r.body());
        }
        try {
            return StrictJson.object(r.body());
        } catch (MalformedJson e) {
            throw new RuntimeUnavailable(shown() + " answered with something that is not "
                    + "the agent runtime's JSON; is it the runtime's URL?");
        }
    }

    private <T> HttpResponse<T> send(HttpRequest req, HttpResponse.BodyHandler<T> handler) throws RuntimeUnavailable {
        try {
            return http.send(req, handler);
        } catch (IOException e) {
            throw unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeUnavailable("interrupted while waiting for " + shown());
        }
    }

    private RuntimeUnavailable unreachable(IOException e) {
        String why;
        if (e instanceof HttpConnectTimeoutException) {
            why = "no connection within 5 s";
        } else if (e instanceof HttpTimeoutException) {
            why = "no answer within " + CALL_TIMEOUT.toSeconds() + " s";
        } else if (e instanceof ConnectException) {
            why = "connection refused, or the host is unknown";
        } else {
            why = "the connection failed (" + e.getClass().getSimpleName() + ")";
        }
        return new RuntimeUnavailable("cannot reach the agent runtime at " + shown() + ": " + why
                + "; start it with `stockade runtime`, or point AGENT_HTTP_URL or --url at it");
    }

    /** A non-2xx answer: the problem's detail when the runtime sent one, else what little the status says. */
    private RuntimeUnavailable refusal(int status, byte[] body) {
        try {
            ObjectNode p = StrictJson.object(body);
            String detail = p.path("detail").asText(p.path("title").asText(""));
            if (!detail.isEmpty()) {
                return new RuntimeUnavailable(detail + " (HTTP " + status + ")");
            }
        } catch (MalformedJson e) {
            // not a problem object: fall through to the status alone
        }
        return new RuntimeUnavailable(shown() + " answered HTTP " + status
                + " without a problem; is it the agent runtime's URL?");
    }

    private Profile profileOf(ObjectNode p) throws RuntimeUnavailable {
        if (!p.path("verbose").isBoolean() || !p.path("lockedIn").isBoolean()) {
            throw new RuntimeUnavailable(shown() + " answered without the agent's profile; "
                    + "is it the agent runtime's URL?");
        }
        return new Profile(p.path("name").asText(), text(p, "modelId"), text(p, "heartbeatModelId"),
                text(p, "cronModelId"), p.path("verbose").asBoolean(), p.path("lockedIn").asBoolean());
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}

package dev.stockade.bench.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.bench.sandbox.BenchPlatform;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The MCP endpoint's three speed figures, against the platform jar as a user runs it and a fast upstream MCP server
 * in this JVM (JSON answers, no work per call):
 * <ol>
 *   <li>{@code tools/list} for a caller granted 50 connectors x 100 tools, end to end over HTTP;</li>
 *   <li>the latency {@code tools/call} adds through the platform over calling the upstream directly, both measured in
 *   the same run at 100 concurrent callers;</li>
 *   <li>the time from sending a policy change (the PATCH) to {@code notifications/tools/list_changed} arriving on an
 *   open session stream, stamped by a thread reading the stream as it arrives.</li>
 * </ol>
 * Every answer timed is checked (outside the timed span): a listing must hold all 5,000 granted tools, a call must
 * return the upstream's text, a peer answer must be the bytes served; the benchmark stops at the first wrong one.
 * The calls run at 1 caller (the latency a call adds on an idle machine) and at 100 (everything on the same two
 * cores: the upstream, the callers, the platform and its PostgreSQL); the platform's CPU per call is printed too.
 * Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.mcp.McpBench [seconds-per-phase] [list]}
 * ({@code list}: the tools/list phase only)
 */
public final class McpBench {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(16)).build();
    private static final int CONNECTORS = 50;
    private static final int TOOLS = 100;
    private static final int CALLERS = 100;

    private McpBench() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        // the upstream answers as MCP servers do (Node, Go, Tomcat and uvicorn all set TCP_NODELAY); the JDK server's
        // default Nagle holds each answer's body behind the client's delayed ACK (about 40 ms a call)
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        HttpServer upstream = FastUpstream.start(TOOLS);
        String up = "http://127.0.0.1:" + upstream.getAddress().getPort();
        try (BenchPlatform platform = BenchPlatform.start(18591, Map.of("CONNECTORS_ALLOW_LOOPBACK_UNSAFE", "true"))) {
            String org = platform.send("POST", "/v1/orgs", "{\"name\":\"bench\"}").path("id").asText();
            String project = platform.send("POST", "/v1/orgs/" + org + "/projects", "{\"name\":\"mcp\"}").path("id")
                    .asText();
            List<String> grants = new ArrayList<>();
            for (int c = 0; c < CONNECTORS; c++) {
                String id = platform.send("POST", "/v1/projects/" + project + "/mcp-servers", "{\"name\":\"c" + c
                        + "\",\"url\":\"" + up + "/mcp/" + c + "\"}").path("id").asText();
                StringBuilder tools = new StringBuilder();
                for (int t = 0; t < TOOLS; t++) {
                    tools.append(t == 0 ? "" : ",").append("\"t").append(t).append('"');
                }
                grants.add("{\"connectorId\":\"" + id + "\",\"allowedTools\":[" + tools + "]}");
            }
            String policyBody = "{\"name\":\"all\",\"connectors\":[" + String.join(",", grants) + "]}";
            String policy = platform.send("POST", "/v1/projects/" + project + "/policies", policyBody).path("id")
                    .asText();
            JsonNode token = platform.send("POST", "/v1/orgs/" + org + "/api-tokens", "{\"name\":\"agent\"}");
            platform.send("PUT", "/v1/projects/" + project + "/members/api-tokens/" + token.path("id").asText(),
                    "{\"role\":\"MEMBER\"}");
            platform.send("POST", "/v1/projects/" + project + "/policy-bindings", "{\"policyId\":\"" + policy
                    + "\",\"apiTokenId\":\"" + token.path("id").asText() + "\"}");
            String bearer = token.path("token").asText();
            String endpoint = platform.base + "/projects/" + project + "/mcp";

            Session s = Session.open(endpoint, bearer);
            byte[] first = s.raw("tools/list", "{}");
            int listed = BenchPlatform.JSON.readTree(first).path("result").path("tools").size();
            int granted = connectorTools(first);
            System.out.printf("tools/list lists %d tools (%d granted connector tools)%n", listed, granted);
            check(granted == CONNECTORS * TOOLS, "the listing holds " + granted + " connector tools, not "
                    + CONNECTORS * TOOLS);
            // the first answer was parsed and counted; every later one must carry the same result, byte for byte
            // (compared, not parsed: parsing 0.6 MB per answer would load the cores the platform runs on)
            byte[] result = Arrays.copyOfRange(first, indexOf(first, RESULT), first.length);
            List<Double> list = new ArrayList<>();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < until) {
                long t0 = System.nanoTime();
                byte[] answer = s.raw("tools/list", "{}"); // timed: the answer's bytes arriving, unparsed
                list.add((System.nanoTime() - t0) / 1e6);
                check(sameResult(answer, result), "a tools/list answer differs from the first: "
                        + new String(answer, 0, Math.min(answer.length, 300), StandardCharsets.UTF_8));
            }
            BenchPlatform.report("tools/list, 50 connectors x 100 tools, end to end", list.subList(list.size() / 5,
                    list.size()));
            peer(upstream, s.raw("tools/list", "{}"), seconds);
            if (args.length > 1 && args[1].equals("list")) {
                return;
            }

            String args0 = "{\"name\":\"c0__t1\",\"arguments\":{\"message\":\"hi\"}}";
            String direct = "{\"name\":\"t1\",\"arguments\":{\"message\":\"hi\"}}";
            load(platform, "warm-up through the platform", endpoint, bearer, args0, Math.max(5, seconds / 4), CALLERS);
            load(null, "warm-up direct", up + "/mcp/0", null, direct, Math.max(5, seconds / 4), CALLERS);
            for (int callers : new int[] {1, CALLERS}) {
                for (int round = 1; round <= 2; round++) {
                    load(null, "tools/call direct to the upstream, " + callers + " callers, round " + round,
                            up + "/mcp/0", null, direct, seconds, callers);
                    load(platform, "tools/call through the platform, " + callers + " callers, round " + round,
                            endpoint, bearer, args0, seconds, callers);
                }
            }

            listChanged(platform, endpoint, bearer, project, policy, grants);
        } finally {
            upstream.stop(0);
        }
        System.exit(0); // the upstream's and the callers' pools are not daemons
    }

    /**
     * The peer of the tools/list phase, in the same run: the same answer bytes served by a bare JDK {@code HttpServer}
     * (no platform code at all) and fetched by the same client the same way. What remains of the platform's tail
     * beyond this one is the platform's; the rest is moving that many bytes over HTTP on this machine.
     */
    private static void peer(HttpServer server, byte[] answer, int seconds) throws Exception {
        server.createContext("/peer", ex -> {
            try (ex) {
                ex.getRequestBody().readAllBytes();
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(200, answer.length);
                ex.getResponseBody().write(answer);
            }
        });
        Session peer = new Session("http://127.0.0.1:" + server.getAddress().getPort() + "/peer", null, null);
        List<Double> times = new ArrayList<>();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < until) {
            long t0 = System.nanoTime();
            byte[] got = peer.raw("tools/list", "{}");
            times.add((System.nanoTime() - t0) / 1e6);
            check(Arrays.equals(got, answer), "the peer answered other bytes than it serves");
        }
        BenchPlatform.report("peer: the same " + answer.length + " bytes from a bare JDK HttpServer",
                times.subList(times.size() / 5, times.size()));
    }

    /** {@code callers} sessions calling one tool as fast as answers come, for {@code seconds}; prints percentiles. */
    private static void load(BenchPlatform platform, String what, String endpoint, String bearer, String params,
                             int seconds, int callers) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        double cpu0 = platform == null ? 0 : platform.cpuMillis();
        List<List<Double>> all = Collections.synchronizedList(new ArrayList<>());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            done.add(CompletableFuture.runAsync(() -> {
                try {
                    Session s = Session.open(endpoint, bearer);
                    List<Double> mine = new ArrayList<>();
                    while (System.nanoTime() < until) {
                        long t0 = System.nanoTime();
                        JsonNode r = s.call("tools/call", params);
                        mine.add((System.nanoTime() - t0) / 1e6);
                        check(!r.path("result").path("isError").asBoolean(false) && !r.has("error")
                                && "ok".equals(r.path("result").path("content").path(0).path("text").asText()),
                                "call failed: " + r);
                    }
                    all.add(mine);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, pool));
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get();
        pool.shutdown();
        List<Double> merged = new ArrayList<>();
        all.forEach(merged::addAll);
        System.out.printf("%s: %.0f calls/s%s%n", what, merged.size() / (double) seconds, platform == null ? ""
                : String.format(", platform CPU %.2f ms per call", (platform.cpuMillis() - cpu0) / merged.size()));
        BenchPlatform.report(what, merged);
    }

    /**
     * Twenty policy changes; each timed from sending the PATCH to the notification's arrival, which a reader thread
     * stamps as the line comes off the stream (a notification may well arrive before the PATCH's own answer). The
     * PATCH must answer 200 and, after each notification, the list must show the change.
     */
    private static void listChanged(BenchPlatform platform, String endpoint, String bearer, String project,
                                    String policy, List<String> grants) throws Exception {
        Session s = Session.open(endpoint, bearer);
        HttpRequest get = HttpRequest.newBuilder(URI.create(endpoint)).header("Authorization", "Bearer " + bearer)
                .header("Accept", "text/event-stream").header("Mcp-Session-Id", s.id).GET().build();
        HttpResponse<java.io.InputStream> stream = HTTP.send(get, HttpResponse.BodyHandlers.ofInputStream());
        check(stream.statusCode() == 200, "the session stream answered " + stream.statusCode());
        BlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.contains("notifications/tools/list_changed")) {
                        arrivals.add(System.nanoTime());
                    }
                }
            } catch (IOException closed) {
                // the stream is closed when the phase ends
            }
        }, "list-changed-reader");
        reader.setDaemon(true);
        reader.start();
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            List<String> now = new ArrayList<>(grants);
            if (i % 2 == 0) {
                now.remove(now.size() - 1); // drop the last connector's grant, then restore it
            }
            arrivals.clear(); // late duplicates of the previous change do not count for this one
            long t0 = System.nanoTime();
            platform.send("PATCH", "/v1/projects/" + project + "/policies/" + policy,
                    "{\"name\":\"all\",\"connectors\":[" + String.join(",", now) + "]}"); // throws unless 2xx
            int expected = now.size() * TOOLS;
            while (true) {
                Long at = arrivals.poll(30, TimeUnit.SECONDS);
                check(at != null, "no list_changed within 30 s of change " + i);
                if (connectorTools(s.raw("tools/list", "{}")) == expected) { // this notification shows the change
                    ms.add((at - t0) / 1e6);
                    break;
                }
            }
        }
        stream.body().close();
        BenchPlatform.report("policy change (PATCH sent) to list_changed received", ms);
    }

    /** The connector tools ({@code <connector>__<tool>}) in a tools/list answer; 0 for an error or no answer. */
    private static int connectorTools(byte[] answer) throws IOException {
        int n = 0;
        for (JsonNode t : BenchPlatform.JSON.readTree(answer).path("result").path("tools")) {
            n += t.path("name").asText().contains("__") ? 1 : 0;
        }
        return n;
    }

    private static final byte[] RESULT = ",\"result\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEAD = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.UTF_8);

    /** Whether {@code answer} is a JSON-RPC answer whose {@code result} is exactly {@code result}'s bytes. */
    private static boolean sameResult(byte[] answer, byte[] result) {
        return answer.length > HEAD.length + result.length && Arrays.equals(answer, 0, HEAD.length, HEAD, 0,
                HEAD.length) && Arrays.equals(answer, answer.length - result.length, answer.length, result, 0,
                result.length);
    }

    private static int indexOf(byte[] in, byte[] what) {
        for (int i = 0; i + what.length <= in.length; i++) {
            if (Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        throw new IllegalStateException("wrong answer: no result in " + new String(in, 0, Math.min(in.length, 300),
                StandardCharsets.UTF_8));
    }

    /** Stops the benchmark at a wrong answer: a figure over wrong answers measures nothing. */
    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("wrong answer: " + what);
        }
    }

    /** A client session over plain HTTP: initialize, then JSON-RPC requests with the session header. */
    private static final class Session {
        final String endpoint;
        final String bearer;
        final String id;
        private long next = 1;

        private Session(String endpoint, String bearer, String id) {
            this.endpoint = endpoint;
            this.bearer = bearer;
            this.id = id;
        }

        static Session open(String endpoint, String bearer) throws Exception {
            HttpResponse<String> r = HTTP.send(post(endpoint, bearer, null, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":"
                    + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}"), HttpResponse.BodyHandlers.ofString());
            String id = r.headers().firstValue("mcp-session-id").orElseThrow(() ->
                    new IllegalStateException("no session: " + r.statusCode() + " " + r.body()));
            HTTP.send(post(endpoint, bearer, id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                    HttpResponse.BodyHandlers.discarding());
            return new Session(endpoint, bearer, id);
        }

        /** The answer's bytes, unparsed (the client's JSON parsing is not the platform's time). */
        byte[] raw(String method, String params) throws Exception {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":" + next++ + ",\"method\":\"" + method + "\",\"params\":"
                    + params + "}";
            return HTTP.send(post(endpoint, bearer, id, body), HttpResponse.BodyHandlers.ofByteArray()).body();
        }

        JsonNode call(String method, String params) throws Exception {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":" + next++ + ",\"method\":\"" + method + "\",\"params\":"
                    + params + "}";
            HttpResponse<String> r = HTTP.send(post(endpoint, bearer, id, body), HttpResponse.BodyHandlers.ofString());
            return BenchPlatform.JSON.readTree(r.body());
        }

        private static HttpRequest post(String endpoint, String bearer, String session, String body) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (bearer != null) {
                b.header("Authorization", "Bearer " + bearer);
            }
            if (session != null) {
                b.header("Mcp-Session-Id", session);
            }
            return b.build();
        }
    }
}

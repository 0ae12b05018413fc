package dev.stockade.bench.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.bench.sandbox.BenchPlatform;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
 *   the same run at 1 and at 100 concurrent callers, with a ping through the platform and a bare commit on its
 *   database beside the 1-caller figures to split what a call adds;</li>
 *   <li>the time from sending a policy change (the PATCH) to {@code notifications/tools/list_changed} arriving on an
 *   open session stream, stamped by a thread reading the stream as it arrives.</li>
 * </ol>
 * Every answer timed is checked (outside the timed span): a listing must hold all 5,000 granted tools, a call must
 * return the upstream's text, a peer answer must be the bytes served; the benchmark stops at the first wrong one.
 * The calls run at 1 caller (the latency a call adds on an idle machine) and at 100 (everything on the same two
 * cores: the upstream, the callers, the platform and its PostgreSQL); the platform's CPU per call is printed too.
 * Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.stockade.bench.mcp.McpBench [seconds-per-phase] [mode]}
 * (mode {@code list}: the tools/list phase only; {@code calls}: the call phases only; {@code one}: the 1-caller
 * call phases only)
 */
public final class McpBench {
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

            String mode = args.length > 1 ? args[1] : "all";
            if (mode.equals("all") || mode.equals("list")) {
                listPhase(upstream, endpoint, bearer, seconds);
            }
            if (!mode.equals("list")) {
                callPhases(platform, up, endpoint, bearer, seconds, mode.equals("one") ? new int[] {1}
                        : new int[] {1, CALLERS});
            }
            if (mode.equals("all")) {
                listChanged(platform, endpoint, bearer, project, policy, grants);
            }
        } finally {
            upstream.stop(0);
        }
        System.exit(0); // the upstream's and the callers' pools are not daemons: every mode ends here
    }

    /** tools/list end to end, every answer checked, then its peer: the same bytes from a bare JDK server. */
    private static void listPhase(HttpServer upstream, String endpoint, String bearer, int seconds) throws Exception {
        McpSession s = McpSession.open(endpoint, bearer);
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
    }

    /**
     * tools/call direct and through the platform, alternating, at each number of callers, two rounds each. At 1 caller
     * two more figures of the same run split the added latency: {@code ping} through the platform (the HTTP hop, the
     * caller's authentication and authorization and the session, but no upstream and no audit entry) and a bare
     * commit on the platform's database (the audit entry's floor). With {@code -Dmcp.jfr=<settings>} the platform
     * records a flight during the first 1-caller round through it ({@code -Dmcp.jfr.out}, default /tmp/mcp-1.jfr).
     */
    private static void callPhases(BenchPlatform platform, String up, String endpoint, String bearer, int seconds,
                                   int[] callerCounts) throws Exception {
        String call = "{\"name\":\"c0__t1\",\"arguments\":{\"message\":\"hi\"}}";
        String direct = "{\"name\":\"t1\",\"arguments\":{\"message\":\"hi\"}}";
        int warm = Math.max(5, seconds / 4);
        load(platform, "warm-up through the platform", endpoint, bearer, "tools/call", call, warm, CALLERS);
        load(null, "warm-up direct", up + "/mcp/0", null, "tools/call", direct, warm, CALLERS);
        for (int callers : callerCounts) {
            for (int round = 1; round <= 2; round++) {
                String at = callers + " callers, round " + round;
                load(null, "tools/call direct to the upstream, " + at, up + "/mcp/0", null, "tools/call", direct,
                        seconds, callers);
                boolean record = callers == 1 && round == 1 && System.getProperty("mcp.jfr") != null;
                if (record) {
                    flight("JFR.start", "name=mcp-hop", "settings=" + System.getProperty("mcp.jfr"));
                }
                load(platform, "tools/call through the platform, " + at, endpoint, bearer, "tools/call", call,
                        seconds, callers);
                if (record) {
                    flight("JFR.stop", "name=mcp-hop", "filename=" + System.getProperty("mcp.jfr.out",
                            "/tmp/mcp-1.jfr"));
                }
                if (callers == 1) {
                    load(platform, "ping through the platform, " + at, endpoint, bearer, "ping", "{}", seconds, 1);
                    BenchPlatform.report("bare commit on the platform's database, round " + round,
                            BareCommit.measure(platform.dir, seconds));
                }
            }
        }
    }

    /** Runs {@code jcmd <platform pid> <command> <options...>} and fails the run if it fails. */
    private static void flight(String command, String... options) throws Exception {
        long pid = ProcessHandle.current().children().filter(p -> p.info().commandLine().orElse("")
                .contains("stockade-platform.jar")).findFirst().orElseThrow().pid();
        List<String> cmd = new ArrayList<>(List.of("jcmd", Long.toString(pid), command));
        cmd.addAll(List.of(options));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p.waitFor() == 0 && !out.contains("Could not"), "jcmd " + command + ": " + out);
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
        McpSession peer = new McpSession("http://127.0.0.1:" + server.getAddress().getPort() + "/peer", null, null);
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

    /**
     * {@code callers} sessions sending {@code method} as fast as answers come, for {@code seconds}; prints percentiles.
     * A call must return the upstream's text, a ping an empty result.
     */
    private static void load(BenchPlatform platform, String what, String endpoint, String bearer, String method,
                             String params, int seconds, int callers) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers, McpSession::daemon);
        double cpu0 = platform == null ? 0 : platform.cpuMillis();
        List<List<Double>> all = Collections.synchronizedList(new ArrayList<>());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            done.add(CompletableFuture.runAsync(() -> {
                try {
                    McpSession s = McpSession.open(endpoint, bearer);
                    List<Double> mine = new ArrayList<>();
                    while (System.nanoTime() < until) {
                        long t0 = System.nanoTime();
                        JsonNode r = s.call(method, params);
                        mine.add((System.nanoTime() - t0) / 1e6);
                        check(!r.has("error") && (method.equals("ping") ? r.path("result").isObject()
                                : !r.path("result").path("isError").asBoolean(false)
                                && "ok".equals(r.path("result").path("content").path(0).path("text").asText())),
                                method + " failed: " + r);
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
        McpSession s = McpSession.open(endpoint, bearer);
        HttpResponse<java.io.InputStream> stream = McpSession.HTTP.send(McpSession.get(endpoint, bearer, s.id).build(),
                HttpResponse.BodyHandlers.ofInputStream());
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
}

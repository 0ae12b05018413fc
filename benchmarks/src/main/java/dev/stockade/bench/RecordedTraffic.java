package dev.stockade.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A fleet's recorded traffic over the {@link Workload} policy, written as {@code stockade audit --all --format json}
 * exports it (pretty-printed {@code {"items": [...]}}, newest first), so that {@code policy impact} and
 * {@code policy suggest} read the file a user would hand them. The verdicts are the recorded policy's own; the
 * candidate under review removes three entries, opens one zone and stops granting one tool, so the entries each
 * change touches are known by construction and every benchmark checks the replay against them.
 */
final class RecordedTraffic {
    static final String CONNECTOR = "0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10";
    /** The zone the candidate opens: every recorded miss below it becomes newly allowed. */
    static final String OPENED_ZONE = "tenant3.example.org";
    /** The tool the candidate stops granting: every recorded call of it becomes newly denied. */
    static final String DROPPED_TOOL = "delete_repo";
    private static final int SANDBOXES = 20;
    private static final int REMOVED_ENTRIES = 3;
    private static final String[] CALLERS = {"/usr/bin/git", "/usr/bin/curl", "/usr/bin/python3", "/usr/bin/gh"};
    private static final String[] METHODS = {"GET", "GET", "GET", "POST", "POST", "DELETE", "PUT"};
    private static final String[] TOOLS = {"search_issues", "create_issue", DROPPED_TOOL};
    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");

    /** What the trail holds, counted while it was written; the replay's totals must equal these. */
    record Expected(long entries, long newlyDenied, long newlyAllowed, long notReplayable) {
        long unchanged() {
            return entries - newlyDenied - newlyAllowed - notReplayable;
        }
    }

    private final Workload workload;
    private final DecisionProgram recordedProgram;
    private final Set<String> removedHosts;

    RecordedTraffic(int size) {
        workload = new Workload(size, true);
        recordedProgram = PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), List.of(),
                List.of(recorded())), CompileOptions.defaults());
        removedHosts = Set.copyOf(workload.exact.subList(0, REMOVED_ENTRIES));
    }

    /** The policy that decided the recorded traffic: the workload's, granting all three tools. */
    Policy recorded() {
        return withTools(workload.policy(), List.of(TOOLS));
    }

    /** The change under review: three exact entries gone, {@code *.tenant3.example.org} opened, one tool dropped. */
    Policy candidate() {
        List<DomainEntry> entries = new ArrayList<>(workload.entries);
        entries.removeIf(e -> removedHosts.contains(e.pattern()));
        entries.add(DomainEntry.allow("*." + OPENED_ZONE));
        return withTools(workload.policy().withAllowedDomains(entries), List.of(TOOLS[0], TOOLS[1]));
    }

    private static Policy withTools(Policy p, List<String> tools) {
        return new Policy(p.name(), p.description(), p.networkDefaultVerdict(), p.networkDefaultTransport(),
                p.allowedDomains(), null, List.of(new ConnectorGrant(CONNECTOR, tools, null)), null, null, null, null);
    }

    /** Writes {@code entries} entries to {@code file} (seeded: every run writes the same bytes). */
    Expected write(Path file, int entries) throws IOException {
        Random random = new Random(29);
        Tally tally = new Tally();
        try (OutputStream out = Files.newOutputStream(file);
             JsonGenerator g = new JsonFactory().createGenerator(out).useDefaultPrettyPrinter()) {
            g.writeStartObject();
            g.writeArrayFieldStart("items");
            for (int i = 0; i < entries; i++) {
                // newest first, one entry every half second: a million entries span under six days
                Instant at = START.plusMillis(500L * (entries - 1 - i));
                entry(g, random, entries - i, at, tally);
            }
            g.writeEndArray();
            g.writeNullField("nextCursor");
            g.writeNullField("nextCursorId");
            g.writeEndObject();
        }
        return new Expected(entries, tally.newlyDenied, tally.newlyAllowed, tally.notReplayable);
    }

    private static final class Tally {
        long newlyDenied;
        long newlyAllowed;
        long notReplayable;
    }

    private void entry(JsonGenerator g, Random random, long id, Instant at, Tally tally) throws IOException {
        String sandbox = "sb-" + random.nextInt(SANDBOXES);
        g.writeStartObject();
        g.writeNumberField("id", id);
        g.writeStringField("at", at.toString());
        g.writeStringField("projectId", "5d7c1a8e-0000-4000-8000-000000000001");
        if (random.nextInt(100) == 0) { // one entry in a hundred is a connector tool call
            toolCall(g, random, sandbox, tally);
        } else {
            egress(g, random, sandbox, tally);
        }
        g.writeEndObject();
    }

    private static void toolCall(JsonGenerator g, Random random, String sandbox, Tally tally) throws IOException {
        String tool = TOOLS[random.nextInt(TOOLS.length)];
        tally.newlyDenied += tool.equals(DROPPED_TOOL) ? 1 : 0;
        head(g, "tool-call", "call", "success", "sandbox-token", sandbox + "-token", "tracker__" + tool);
        g.writeObjectFieldStart("details");
        g.writeStringField("tool", "tracker__" + tool);
        g.writeStringField("via", "mcp");
        g.writeStringField("connectorId", CONNECTOR);
        g.writeStringField("upstreamTool", tool);
        g.writeEndObject();
    }

    private void egress(JsonGenerator g, Random random, String sandbox, Tally tally) throws IOException {
        String host = workload.hosts[random.nextInt(Workload.REQUESTS)];
        String caller = CALLERS[random.nextInt(CALLERS.length)];
        boolean passthrough = random.nextInt(20) == 0;
        EgressRequest connection = EgressRequest.connection("https", host, 443, passthrough ? host : null, caller);
        Decision decided = recordedProgram.decideConnection(connection);
        if (!decided.allowed() || random.nextInt(100) < 15) { // a refused connection carries no request
            tally.newlyAllowed += !decided.allowed() && host.endsWith("." + OPENED_ZONE) ? 1 : 0;
            tally.newlyDenied += decided.allowed() && removedHosts.contains(host) ? 1 : 0;
            record(g, sandbox, passthrough ? "passthrough" : "connect", host + ":443", caller, null, null, decided);
            return;
        }
        boolean plain = random.nextInt(10) == 0;
        String method = METHODS[random.nextInt(METHODS.length)];
        String path = path(method, random);
        EgressRequest request = new EgressRequest(plain ? "http" : "https", host, plain ? 80 : 443, null, caller,
                method, path, null, Map.of(), null, false);
        Decision d = recordedProgram.decide(request);
        String target = host + (plain ? ":80" : ":443");
        if (d.allowed() && random.nextInt(200) == 0) { // the proxy's own failure, never the policy's verdict
            tally.notReplayable++;
            head(g, "egress", "deny", "error", "sandbox", sandbox, target);
            details(g, plain ? "http" : "intercepted", caller, method, path, d, "origin-unreachable", 502);
            return;
        }
        tally.newlyDenied += d.allowed() && removedHosts.contains(host) ? 1 : 0;
        record(g, sandbox, plain ? "http" : "intercepted", target, caller, method, path, d);
    }

    /** A path for {@code method}: most of them one of the workload's three rules admits, the rest none does. */
    private static String path(String method, Random random) {
        String org = "org" + random.nextInt(40);
        return switch (method) {
            case "GET" -> switch (random.nextInt(4)) {
                case 0, 1 -> "/repos/" + org + "/pulls";
                case 2 -> "/users/u" + random.nextInt(200);
                default -> "/repos/" + org + "/contents/src/f" + random.nextInt(50) + ".java";
            };
            case "POST" -> "/repos/" + org + "/issues/" + random.nextInt(500) + "/comments";
            default -> "/repos/" + org + "/issues/" + random.nextInt(500);
        };
    }

    private static void record(JsonGenerator g, String sandbox, String listener, String target, String caller,
            String method, String path, Decision d) throws IOException {
        head(g, "egress", d.allowed() ? "allow" : "deny", d.allowed() ? "success" : "denied", "sandbox", sandbox,
                target);
        details(g, listener, caller, method, path, d, d.reason().code(), d.allowed() ? 200 : 403);
    }

    private static void head(JsonGenerator g, String kind, String action, String outcome, String actorType,
            String actorId, String target) throws IOException {
        g.writeStringField("kind", kind);
        g.writeStringField("action", action);
        g.writeBooleanField("read", false);
        g.writeStringField("outcome", outcome);
        g.writeObjectFieldStart("actor");
        g.writeStringField("type", actorType);
        g.writeStringField("id", actorId);
        g.writeEndObject();
        g.writeStringField("target", target);
    }

    private static void details(JsonGenerator g, String listener, String caller, String method, String path,
            Decision d, String reason, int status) throws IOException {
        g.writeObjectFieldStart("details");
        g.writeStringField("listener", listener);
        g.writeStringField("caller", caller);
        if (method != null) {
            g.writeStringField("method", method);
            g.writeStringField("path", path);
        }
        g.writeStringField("transport", "upstream");
        if (d.policy() != null) {
            g.writeStringField("policy", d.policy());
        }
        g.writeNumberField("entry", d.entryIndex());
        g.writeNumberField("rule", d.ruleIndex());
        g.writeStringField("reason", reason);
        g.writeNumberField("status", status);
        g.writeEndObject();
    }
}

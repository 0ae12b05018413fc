package dev.stockade.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.policy.impact.Change;
import dev.stockade.policy.impact.ImpactGroup;
import dev.stockade.policy.impact.ImpactReport;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourcePosition;
import dev.stockade.policy.model.TerminalText;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The impact report for people (text), for pull-request comments (markdown, SARIF 2.1.0 with each change placed on
 * the candidate entry that decides it) and for programs (JSON). Every recorded value is escaped for its medium: the
 * trail holds what sandboxes sent.
 */
final class ImpactRender {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ImpactRender() {
    }

    static void print(ImpactCommand.Format format, ImpactReport r, List<ReadResult> candidates, PrintWriter out) {
        switch (format) {
            case json -> out.println(json(r).toPrettyString());
            case sarif -> out.println(sarif(r, candidates).toPrettyString());
            case markdown -> markdown(r, out);
            default -> text(r, out);
        }
        out.flush();
    }

    static ObjectNode json(ImpactReport r) {
        ObjectNode n = JSON.createObjectNode().put("entries", r.entries()).put("newlyDenied", r.newlyDenied())
                .put("newlyAllowed", r.newlyAllowed()).put("unchanged", r.unchanged())
                .put("notReplayable", r.notReplayable()).put("breaking", r.breaking())
                .put("firstSeen", time(r.firstSeen())).put("lastSeen", time(r.lastSeen()))
                .put("unlistedEntries", r.unlistedEntries());
        r.deniedGroups().forEach(g -> group(n.withArray("deniedGroups").addObject(), g));
        r.allowedGroups().forEach(g -> group(n.withArray("allowedGroups").addObject(), g));
        n.withArray("deniedGroups");
        n.withArray("allowedGroups");
        ArrayNode skipped = n.putArray("notReplayableBy");
        r.notReplayableBy().forEach(c -> skipped.addObject().put("reason", c.reason().code()).put("count", c.count())
                .put("detail", c.reason().detail()));
        return n;
    }

    private static void group(ObjectNode n, ImpactGroup g) {
        n.put("change", g.change().code()).put("kind", g.kind().slug()).put("sandbox", g.sandbox())
                .put("target", g.target()).put("operation", g.operation()).put("count", g.count())
                .put("firstSeen", time(g.firstSeen())).put("lastSeen", time(g.lastSeen()))
                .put("recordedReason", g.recordedReason()).put("candidateReason", g.candidateReason())
                .put("candidatePolicy", g.candidatePolicy()).put("candidateEntry", g.candidateEntry());
    }

    private static void text(ImpactReport r, PrintWriter out) {
        out.println("replayed " + r.entries() + " recorded decisions" + window(r));
        out.println("  newly denied:   " + r.newlyDenied());
        out.println("  newly allowed:  " + r.newlyAllowed());
        out.println("  unchanged:      " + r.unchanged());
        out.println("  not replayable: " + r.notReplayable());
        textGroups("newly denied (what would break):", r.deniedGroups(), out);
        textGroups("newly allowed (what would open):", r.allowedGroups(), out);
        if (!r.notReplayableBy().isEmpty()) {
            out.println("not replayable:");
            r.notReplayableBy().forEach(c -> out.println("  " + c.reason().code() + "  " + c.count() + "  "
                    + c.reason().detail()));
        }
        if (r.unlistedEntries() > 0) {
            out.println("(" + r.unlistedEntries() + " changed entries in groups past the listing cap: in the counts, not listed)");
        }
    }

    private static void textGroups(String title, List<ImpactGroup> groups, PrintWriter out) {
        if (groups.isEmpty()) {
            return;
        }
        out.println(title);
        for (ImpactGroup g : groups) {
            out.println(TerminalText.escape("  " + g.kind().slug() + "  " + g.sandbox() + "  " + g.target() + "  "
                    + g.operation() + "  x" + g.count() + "  first " + g.firstSeen() + "  last " + g.lastSeen()
                    + "  [" + g.recordedReason() + " -> " + g.candidateReason() + "]"));
        }
    }

    private static void markdown(ImpactReport r, PrintWriter out) {
        out.println("### Policy impact" + (r.breaking() ? ": breaking" : ""));
        out.println();
        out.println("Replayed " + r.entries() + " recorded decisions" + window(r) + ": **" + r.newlyDenied()
                + "** newly denied, **" + r.newlyAllowed() + "** newly allowed, " + r.unchanged() + " unchanged, "
                + r.notReplayable() + " not replayable.");
        mdGroups("Newly denied (what would break)", r.deniedGroups(), out);
        mdGroups("Newly allowed (what would open)", r.allowedGroups(), out);
        if (!r.notReplayableBy().isEmpty()) {
            out.println();
            out.println("Not replayable: " + String.join(", ", r.notReplayableBy().stream()
                    .map(c -> c.count() + " " + c.reason().code()).toList()) + ".");
        }
    }

    private static void mdGroups(String title, List<ImpactGroup> groups, PrintWriter out) {
        if (groups.isEmpty()) {
            return;
        }
        out.println();
        out.println("#### " + title);
        out.println();
        out.println("| kind | sandbox | target | operation | count | first seen | last seen | reason now |");
        out.println("|---|---|---|---|---:|---|---|---|");
        for (ImpactGroup g : groups) {
            out.println("| " + g.kind().slug() + " | " + cell(g.sandbox()) + " | " + cell(g.target()) + " | "
                    + cell(g.operation()) + " | " + g.count() + " | " + g.firstSeen() + " | " + g.lastSeen() + " | "
                    + cell(g.candidateReason()) + " |");
        }
    }

    /** A markdown table cell: escaped text in a code span that no recorded backtick or pipe can close. */
    private static String cell(String value) {
        String safe = TerminalText.escape(value == null ? "-" : value).replace("`", "'").replace("|", "\\|");
        return "`" + safe + "`";
    }

    private static ObjectNode sarif(ImpactReport r, List<ReadResult> candidates) {
        ObjectNode root = JSON.createObjectNode().put("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
                .put("version", "2.1.0");
        ObjectNode run = root.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver").put("name", "stockade policy impact");
        ArrayNode rules = driver.putArray("rules");
        rules.addObject().put("id", Change.NEWLY_DENIED.code()).putObject("shortDescription")
                .put("text", "recorded traffic the candidate would deny");
        rules.addObject().put("id", Change.NEWLY_ALLOWED.code()).putObject("shortDescription")
                .put("text", "recorded traffic the candidate would allow");
        ArrayNode results = run.putArray("results");
        r.deniedGroups().forEach(g -> result(results.addObject(), g, "error", candidates));
        r.allowedGroups().forEach(g -> result(results.addObject(), g, "note", candidates));
        return root;
    }

    private static void result(ObjectNode n, ImpactGroup g, String level, List<ReadResult> candidates) {
        String verb = g.change() == Change.NEWLY_DENIED ? "denied" : "allowed";
        n.put("ruleId", g.change().code()).put("level", level).putObject("message").put("text",
                TerminalText.escape(g.kind().slug() + " of `" + g.sandbox() + "`: " + g.operation() + " on "
                        + g.target() + ", recorded " + g.count() + " times (" + g.firstSeen() + " to " + g.lastSeen()
                        + "), would be " + verb + " (" + g.candidateReason() + ")"));
        ReadResult file = deciding(g, candidates).orElse(candidates.get(0));
        ObjectNode physical = n.putArray("locations").addObject().putObject("physicalLocation");
        physical.putObject("artifactLocation").put("uri", file.sourceName());
        Optional<SourcePosition> at = g.candidateEntry() < 0 || !file.policy().name().equals(g.candidatePolicy())
                ? Optional.empty() : file.sourceMap().position("/allowedDomains/" + g.candidateEntry());
        ObjectNode region = physical.putObject("region");
        region.put("startLine", at.map(SourcePosition::line).orElse(1));
        at.ifPresent(p -> region.put("startColumn", p.column()));
    }

    /** The candidate file whose policy decided the group, if a named policy did. */
    private static Optional<ReadResult> deciding(ImpactGroup g, List<ReadResult> candidates) {
        return candidates.stream().filter(c -> c.policy().name().equals(g.candidatePolicy())).findFirst();
    }

    private static String window(ImpactReport r) {
        return r.firstSeen() == null ? "" : " from " + r.firstSeen() + " to " + r.lastSeen();
    }

    private static String time(Instant at) {
        return at == null ? null : at.toString();
    }
}

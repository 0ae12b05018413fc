package dev.stockade.cli.testing;

import dev.stockade.cli.testing.CoverageItem.Kind;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EffectiveComponent;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.SourcePosition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Records, case by case, which policy items the decision cases reached (docs/semantics.md, "Policy test
 * coverage"): every entry of the effective row the request fell in, and the entry and rule its decision names.
 * The universe is every entry and rule of every policy a decision case resolved, ceilings included.
 */
public final class CoverageRecorder {
    /** Items by identity (policy source, pointer), in the order they were first seen. */
    private final Map<String, CoverageItem> items = new LinkedHashMap<>();
    private final Set<String> covered = new HashSet<>();

    /** A policy a decision case resolved, where it was read, and whether it was part of the ceiling. */
    record Loaded(ReadResult read, String source, boolean ceiling) {
        String name() {
            return read.policy().name();
        }
    }

    /** Adds the entries and rules of the policies of one decision case to the universe. */
    void declare(List<Loaded> policies) {
        for (Loaded p : policies) {
            List<DomainEntry> domains = p.read().policy().domains();
            for (int i = 0; i < domains.size(); i++) {
                DomainEntry entry = domains.get(i);
                String at = "/allowedDomains/" + i;
                add(p, Kind.ENTRY, at, "`" + entry.pattern() + "` (" + wire(entry) + ")");
                List<Rule> rules = entry.rules() == null ? List.of() : entry.rules();
                for (int j = 0; j < rules.size(); j++) {
                    Rule r = rules.get(j);
                    Kind kind = r.graphql() == null ? Kind.RULE : Kind.GRAPHQL_FENCE;
                    add(p, kind, at + "/rules/" + j, describe(r) + " of `" + entry.pattern() + "`");
                }
            }
        }
    }

    /**
     * Marks what one decision reached: the entries of its row ({@code components}, empty when no row matched) and
     * the entry and rule the decision names, found among {@code policies} by name (a grant before a ceiling
     * policy of the same name, except for a ceiling-clipped decision).
     */
    void reached(List<Loaded> policies, Decision decision, List<EffectiveComponent> components) {
        for (EffectiveComponent c : components) {
            find(policies, c.source().policy(), c.source().ceiling())
                    .ifPresent(p -> mark(p, "/allowedDomains/" + c.source().entryIndex()));
        }
        if (decision.policy() == null || decision.entryIndex() < 0) {
            return;
        }
        boolean ceilingFirst = decision.reason() == ReasonCode.CEILING_CLIPPED;
        find(policies, decision.policy(), ceilingFirst).or(() -> find(policies, decision.policy(), !ceilingFirst))
                .ifPresent(p -> {
                    String entry = "/allowedDomains/" + decision.entryIndex();
                    mark(p, entry);
                    if (decision.ruleIndex() >= 0) {
                        mark(p, entry + "/rules/" + decision.ruleIndex());
                    }
                });
    }

    /** The report of everything recorded so far. */
    public CoverageReport report() {
        Map<String, List<CoverageItem>> byFile = new TreeMap<>();
        Map<String, Set<CoverageItem>> coveredByFile = new TreeMap<>();
        items.forEach((id, item) -> {
            byFile.computeIfAbsent(item.file(), f -> new ArrayList<>()).add(item);
            if (covered.contains(id)) {
                coveredByFile.computeIfAbsent(item.file(), f -> new HashSet<>()).add(item);
            }
        });
        List<CoverageReport.FileCoverage> files = new ArrayList<>();
        int allCovered = 0;
        for (Map.Entry<String, List<CoverageItem>> e : byFile.entrySet()) {
            Set<CoverageItem> hit = coveredByFile.getOrDefault(e.getKey(), Set.of());
            List<CoverageItem> all = e.getValue();
            List<CoverageItem> missed = all.stream().filter(i -> !hit.contains(i))
                    .sorted(Comparator.comparingInt(CoverageItem::line)).toList();
            allCovered += hit.size();
            files.add(new CoverageReport.FileCoverage(e.getKey(), hit.size(), all.size(),
                    CoverageReport.percent(hit.size(), all.size()), tally(all, hit, Kind.ENTRY),
                    tally(all, hit, Kind.RULE), tally(all, hit, Kind.GRAPHQL_FENCE), missed));
        }
        return new CoverageReport(allCovered, items.size(), CoverageReport.percent(allCovered, items.size()), files);
    }

    private static CoverageReport.Tally tally(List<CoverageItem> all, Set<CoverageItem> hit, Kind kind) {
        return new CoverageReport.Tally((int) hit.stream().filter(i -> i.kind() == kind).count(),
                (int) all.stream().filter(i -> i.kind() == kind).count());
    }

    private static java.util.Optional<Loaded> find(List<Loaded> policies, String name, boolean ceiling) {
        return policies.stream().filter(p -> p.ceiling() == ceiling && name.equals(p.name())).findFirst();
    }

    private void add(Loaded p, Kind kind, String pointer, String label) {
        SourcePosition pos = p.read().sourceMap().nearest(pointer);
        items.putIfAbsent(p.source() + "#" + pointer, new CoverageItem(kind, display(p.read().sourceName()),
                pos == null ? 0 : pos.line(), p.name(), pointer, label));
    }

    private void mark(Loaded p, String pointer) {
        String id = p.source() + "#" + pointer;
        if (items.containsKey(id)) {
            covered.add(id);
        }
    }

    private static String wire(DomainEntry entry) {
        return entry.verdict() == null ? "?" : entry.verdict().wire();
    }

    private static String describe(Rule r) {
        String plain = (r.method() == null ? "*" : r.method()) + " " + (r.path() == null ? "*" : r.path());
        if (r.graphql() == null) {
            return plain;
        }
        String op = r.graphql().operationType() == null ? "?" : r.graphql().operationType().wire();
        return op + (r.graphql().operationName() == null ? "" : " " + r.graphql().operationName()) + " at " + plain;
    }

    /** A path under the working folder is shown relative to it, as the user would type it. */
    static String display(String sourceName) {
        try {
            Path path = Path.of(sourceName);
            Path here = Path.of("").toAbsolutePath();
            return path.isAbsolute() && path.startsWith(here) ? here.relativize(path).toString() : sourceName;
        } catch (RuntimeException e) {
            return sourceName;
        }
    }
}

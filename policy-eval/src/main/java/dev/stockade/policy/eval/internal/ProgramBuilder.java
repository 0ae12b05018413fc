package dev.stockade.policy.eval.internal;

import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EffectiveComponent;
import dev.stockade.policy.eval.EffectiveEntry;
import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.eval.EntryRef;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import dev.stockade.policy.glob.HostPort;
import dev.stockade.policy.graphql.GraphqlFenceSet;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import dev.stockade.policy.text.Quoted;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * Compiles an {@link EffectivePolicy} into a {@link DecisionProgram}: patterns normalised and indexed,
 * schemes lower-cased, methods upper-cased, path globs compiled, every decision built in advance.
 */
public final class ProgramBuilder {
    private ProgramBuilder() {
    }

    /**
     * The engine of {@code effective}; never throws for a policy that validation accepted. Reached only
     * through {@link DecisionProgram#compile}, the one public way to build a program.
     */
    public static Engine build(EffectivePolicy effective, CompileOptions options) {
        List<EffectiveEntry> entries = effective.entries();
        Row[] rows = new Row[entries.size()];
        List<List<DomainPattern>> patterns = new ArrayList<>(entries.size());
        int[] ports = new int[entries.size()];
        // Rows repeat patterns (a row per pair of crossing wildcards): each distinct text is parsed once.
        Map<String, DomainPattern> parsedTexts = new HashMap<>();
        for (int i = 0; i < rows.length; i++) {
            EffectiveEntry entry = entries.get(i);
            List<DomainPattern> parsed = new ArrayList<>(entry.patterns().size());
            for (String p : entry.patterns()) {
                parsed.add(p == null ? DomainPattern.parse(null) : parsedTexts.computeIfAbsent(p, DomainPattern::parse));
            }
            int port = DomainPattern.portOf(parsed);
            ports[i] = port;
            if (parsed.isEmpty() || parsed.stream().anyMatch(p -> !p.admitsPort(port))) {
                parsed = List.of(DomainPattern.parse(null)); // no pattern, or two ports: the row matches nothing
            }
            patterns.add(parsed);
            rows[i] = row(entry, ports[i], options);
        }
        Decision fallback = defaultDecision(effective);
        return new Engine(rows, new PortIndex(patterns, ports, !fallback.allowed(), options.hostMemoSlots()), fallback,
                options.inferSchemeFromConnection());
    }

    private static Decision defaultDecision(EffectivePolicy effective) {
        if (effective.defaultVerdict() == Verdict.ALLOW) {
            Transport t = effective.defaultTransport() == null ? Transport.UPSTREAM : effective.defaultTransport();
            return new Decision(Verdict.ALLOW, t, t == Transport.UPSTREAM, ReasonCode.DEFAULT_ALLOW, null, -1, -1,
                    "no entry matched and the network default allows");
        }
        ReasonCode reason = effective.defaultReason() == null ? ReasonCode.DEFAULT_DENY : effective.defaultReason();
        String detail = reason == ReasonCode.CEILING_CLIPPED
                ? "no entry matched and the organization ceiling does not allow the host"
                : "no entry matched and the network default denies";
        return Decision.deny(reason, detail);
    }

    private static Row row(EffectiveEntry entry, int port, CompileOptions options) {
        EntryRef by = entry.decidedBy();
        String policy = by == null ? null : by.policy();
        int index = by == null ? -1 : by.entryIndex();
        Decision portDeny = port == HostPort.ANY ? null : new Decision(Verdict.DENY, null, false,
                ReasonCode.PORT_NOT_ALLOWED, policy, index, -1, "no entry admits the request's port; entry" + where(by)
                + " names the host on port " + port + " only (docs/semantics.md, \"Ports\")");
        if (entry.verdict() != Verdict.ALLOW) {
            ReasonCode reason = entry.reason() == null ? ReasonCode.ENTRY_DENY : entry.reason();
            String detail = reason == ReasonCode.CEILING_CLIPPED
                    ? "the organization ceiling does not allow the host" + where(by)
                    : "denied by entry" + where(by);
            return new Row(new Decision(Verdict.DENY, null, false, reason, policy, index, -1, detail), null, null,
                    new Fence[0], portDeny);
        }
        Transport transport = entry.transport() == null ? Transport.UPSTREAM : entry.transport();
        boolean intercept = transport == Transport.UPSTREAM;
        ReasonCode reason = entry.reason() == ReasonCode.DEFAULT_ALLOW ? ReasonCode.DEFAULT_ALLOW
                : ReasonCode.ENTRY_ALLOW;
        String detail = by == null ? "allowed by the network default" : "allowed by entry" + where(by);
        Decision allow = new Decision(Verdict.ALLOW, transport, intercept, reason, policy, index, -1, detail);
        List<Fence> fences = new ArrayList<>();
        boolean primaryTaken = false;
        for (EffectiveComponent c : entry.components()) {
            if (c.entry().verdict() != Verdict.ALLOW) {
                continue;
            }
            boolean primary = !primaryTaken && !c.source().ceiling();
            primaryTaken |= primary;
            DomainEntry d = c.entry();
            if (d.scheme() != null || d.binaries() != null || d.hasRules()) {
                fences.add(fence(c, primary, transport, intercept, options));
            }
        }
        return new Row(null, allow, allow, fences.toArray(new Fence[0]), portDeny);
    }

    private static Fence fence(EffectiveComponent c, boolean primary, Transport transport, boolean intercept,
            CompileOptions options) {
        DomainEntry e = c.entry();
        EntryRef src = c.source();
        String where = where(src);
        String scheme = e.scheme() == null ? null : e.scheme().toLowerCase(Locale.ROOT);
        // the port an entry's pattern names wins over its scheme's default port (docs/semantics.md, "Ports")
        boolean namesPort = e.pattern() != null && HostPort.split(e.pattern()).hasPort();
        int port = scheme == null || namesPort ? -1 : switch (scheme) {
            case "https", "wss" -> 443;
            case "http", "ws" -> 80;
            default -> -1;
        };
        Decision schemeDeny = scheme == null ? null : deny(ReasonCode.SCHEME_MISMATCH, src, -1,
                "the request scheme is not " + Quoted.input(scheme) + " required by entry" + where);
        Decision portDeny = port < 0 ? null : deny(ReasonCode.SCHEME_MISMATCH, src, -1, "entry scheme " + Quoted.input(scheme)
                + " admits port " + port + " only (docs/semantics.md, \"Ports\")");
        Decision callerDeny = e.binaries() == null ? null : deny(ReasonCode.CALLER_NOT_LISTED, src, -1,
                "the caller is not listed by entry" + where);
        Decision noRule = !e.hasRules() ? null : deny(ReasonCode.NO_RULE_MATCHED, src, -1, "no rule of entry"
                + where + " admits the request");
        CompiledRule[] rules = null;
        if (e.hasRules()) {
            rules = new CompiledRule[e.rules().size()];
            for (int i = 0; i < rules.length; i++) {
                rules[i] = rule(i, e.rules().get(i), src, where, transport, intercept, options);
            }
        }
        return new Fence(scheme, port, e.binaries() == null ? null : new HashSet<>(e.binaries()), rules, primary,
                new Fence.Refusals(schemeDeny, portDeny, callerDeny, noRule));
    }

    private static CompiledRule rule(int i, Rule r, EntryRef src, String where, Transport transport, boolean intercept,
            CompileOptions options) {
        // one shared instance per method name: a rule's method compares by identity first, and a decision touches
        // one string however many rules it passes
        String method = r.method() == null ? null : r.method().toUpperCase(Locale.ROOT).intern();
        Glob path = null;
        boolean broken = false;
        if (r.path() != null) {
            GlobResult g = Glob.compile(GlobKind.PATH, r.path());
            path = g.glob();
            broken = !g.ok() || g.glob() == null;
        }
        boolean graphql = r.graphql() != null;
        Decision allow = new Decision(Verdict.ALLOW, transport, intercept, ReasonCode.RULE_ALLOW, src.policy(),
                src.entryIndex(), i, "allowed by rule " + i + " of entry" + where);
        Decision unsupported = deny(ReasonCode.GRAPHQL_UNSUPPORTED, src, i, "the graphql fence of rule " + i
                + " of entry" + where + " could not be compiled: denied");
        return new CompiledRule(i, method, path, broken, graphql, graphql ? graphqlFence(r, options) : null, allow,
                unsupported);
    }

    /** The rule's fence compiled, or null when it cannot be (the rule then denies: fail closed). */
    private static GraphqlFenceSet graphqlFence(Rule rule, CompileOptions options) {
        try {
            return GraphqlFenceSet.allOf(List.of(rule.graphql()), options.graphqlLimits(), options.graphqlDocuments());
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Decision deny(ReasonCode reason, EntryRef src, int rule, String detail) {
        return new Decision(Verdict.DENY, null, false, reason, src.policy(), src.entryIndex(), rule, detail);
    }

    private static String where(EntryRef ref) {
        if (ref == null) {
            return "";
        }
        return " " + ref.entryIndex() + " of " + (ref.ceiling() ? "ceiling " : "") + "policy " + Quoted.input(ref.policy());
    }
}

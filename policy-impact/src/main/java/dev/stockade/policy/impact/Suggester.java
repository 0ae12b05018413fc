package dev.stockade.policy.impact;

import dev.stockade.policy.eval.HostName;
import dev.stockade.policy.eval.ParsedHost;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.PolicyWriter;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Severity;
import dev.stockade.policy.model.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Suggests the smallest policy that would have allowed what a window of the trail allowed (docs/policy-impact.md,
 * "Suggest"), the way IAM Access Analyzer drafts a policy from CloudTrail: entries stream in through {@link #add},
 * exact hosts, methods and paths are kept, and {@link HostGeneralisation} and {@link PathGeneralisation} widen only
 * where their documented thresholds are met. Denied entries never open anything. Not thread-safe.
 */
public final class Suggester {
    private record Endpoint(String host, int port) {
    }

    private final SuggestOptions options;
    private final Map<Endpoint, ObservedEndpoint> endpoints = new TreeMap<>(
            Comparator.comparing(Endpoint::host).thenComparingInt(Endpoint::port));
    private final Map<String, Set<String>> tools = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Set<String> unnamedHosts = new TreeSet<>();
    private long entries;
    private long used;
    private long denied;
    private long notUsable;
    private long otherSandbox;
    private Instant firstSeen;
    private Instant lastSeen;

    public Suggester(SuggestOptions options) {
        this.options = options;
    }

    /** Suggests from every entry of {@code trail}. */
    public static Suggestion suggest(SuggestOptions options, Iterable<? extends RecordedDecision> trail) {
        Suggester s = new Suggester(options);
        trail.forEach(s::add);
        return s.suggestion();
    }

    /** Reads one entry; throws {@link ReplayCapExceeded} past the entry cap. */
    public void add(RecordedDecision recorded) {
        if (entries == options.maxEntries()) {
            throw new ReplayCapExceeded(options.maxEntries());
        }
        entries++;
        if (recorded.at() != null) {
            firstSeen = firstSeen == null || recorded.at().isBefore(firstSeen) ? recorded.at() : firstSeen;
            lastSeen = lastSeen == null || recorded.at().isAfter(lastSeen) ? recorded.at() : lastSeen;
        }
        if (!inScope(recorded)) {
            otherSandbox++;
        } else if (recorded instanceof RecordedDecision.Egress e) {
            egress(e);
        } else if (recorded instanceof RecordedDecision.ToolCall t && t.recorded() == Verdict.ALLOW) {
            used++;
            tools.computeIfAbsent(t.connectorId(), k -> new TreeSet<>()).add(t.upstreamTool());
        } else {
            notUsable++;
        }
    }

    private boolean inScope(RecordedDecision r) {
        String want = options.sandbox();
        if (want == null) {
            return true;
        }
        String who = r.sandbox();
        // egress names the sandbox id; a tool call (and an entry of another kind) its caller as `type:id`
        return who != null && (who.equals(want) || who.endsWith(":" + want));
    }

    private void egress(RecordedDecision.Egress e) {
        ReasonCode reason = e.reason() == null ? null : ReasonCode.fromCode(e.reason());
        if (reason == null || Redecision.STATE_REASONS.contains(reason)) {
            notUsable++; // the proxy's or the platform's own verdict, not the policy's
            return;
        }
        if (e.recorded() != Verdict.ALLOW) {
            denied++;
            return;
        }
        ParsedHost parsed = HostName.parse(e.host());
        if (!(parsed instanceof HostName host)) {
            unnamedHosts.add(e.host());
            return;
        }
        used++;
        endpoints.computeIfAbsent(new Endpoint(host.authorityForm(), e.port()), k -> new ObservedEndpoint()).see(e);
    }

    /**
     * The policy with the fences validation refuses dropped: a recorded caller or request the validator will not
     * take (a character a {@code binaries} entry or a rule cannot hold) loses its entry's caller fence or rules. Both
     * only widen, so everything recorded stays admitted; the validator is the one judge, never a copy of its rules.
     */
    private static Policy withoutRefusedFences(Policy policy) {
        ReadResult read = PolicyReader.read("suggested.yaml", PolicyWriter.toYaml(policy));
        List<DomainEntry> entries = new ArrayList<>(policy.domains());
        for (Problem p : read.problems()) {
            String[] at = p.severity() == Severity.ERROR ? p.pointer().split("/") : new String[0];
            if (at.length > 3 && at[1].equals("allowedDomains")) {
                int i = Integer.parseInt(at[2]);
                DomainEntry e = entries.get(i);
                entries.set(i, at[3].equals("binaries") ? e.withBinaries(null)
                        : at[3].equals("rules") ? e.withRules(null) : e);
            }
        }
        return policy.withAllowedDomains(entries);
    }

    /** The suggestion from every entry read so far. */
    public Suggestion suggestion() {
        List<DomainEntry> exact = new ArrayList<>();
        List<DomainEntry> wild = new ArrayList<>();
        List<Suggestion.MadeWildcard> made = new ArrayList<>();
        Map<Integer, Map<String, ObservedEndpoint>> byPort = new TreeMap<>();
        endpoints.forEach((k, seen) -> byPort.computeIfAbsent(k.port(), p -> new TreeMap<>()).put(k.host(), seen));
        byPort.forEach((port, hosts) -> {
            Set<String> covered = new TreeSet<>();
            for (HostGeneralisation.Wildcard w : HostGeneralisation.wildcards(hosts.keySet(), options.minSubdomains())) {
                ObservedEndpoint merged = new ObservedEndpoint();
                w.hosts().forEach(h -> merged.absorb(hosts.get(h)));
                covered.addAll(w.hosts());
                wild.add(merged.entry(w.pattern() + ":" + port, port, options.minPaths()));
                made.add(new Suggestion.MadeWildcard(w.pattern() + ":" + port, w.hosts()));
            }
            hosts.forEach((host, seen) -> {
                if (!covered.contains(host)) {
                    exact.add(seen.entry(host + ":" + port, port, options.minPaths()));
                }
            });
        });
        // exact entries first: an apex or a host on another port never reaches a wildcard's fences
        exact.sort(Comparator.comparing(DomainEntry::pattern));
        wild.sort(Comparator.comparing(DomainEntry::pattern));
        List<DomainEntry> all = new ArrayList<>(exact);
        all.addAll(wild);
        List<ConnectorGrant> grants = new ArrayList<>();
        tools.forEach((id, names) -> grants.add(new ConnectorGrant(id, List.copyOf(names), null)));
        Policy policy = withoutRefusedFences(new Policy(options.name(), "suggested by stockade policy suggest from "
                + used + " allowed entries", Verdict.DENY, null, all, null, grants.isEmpty() ? null : grants, null,
                null, null, null));
        return new Suggestion(policy, firstSeen, lastSeen, entries, used, denied, notUsable, otherSandbox,
                List.copyOf(unnamedHosts), made);
    }
}

package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.text.Quoted;
import dev.stockade.policy.compiler.BlockedDomain;
import dev.stockade.policy.compiler.DriftReport;
import dev.stockade.policy.compiler.NarrowedDomain;
import dev.stockade.policy.eval.EffectiveComponent;
import dev.stockade.policy.eval.EffectiveEntry;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Stage "drift": for every allow entry of the grants, what the ceiling alone does to its hosts. Blocked
 * when no host gets through; narrowed when some do not, or when the ceiling adds a fence or forces
 * upstream transport.
 */
public final class CeilingDrift {
    private CeilingDrift() {
    }

    /** The drift of {@code grants} under the ceiling's entries (indexed once, read for every grant entry). */
    public static DriftReport report(List<IndexedEntries> ceiling, List<Policy> grants) {
        if (ceiling.isEmpty()) {
            return DriftReport.empty();
        }
        List<NarrowedDomain> narrowed = new ArrayList<>();
        List<BlockedDomain> blocked = new ArrayList<>();
        for (Policy p : grants) {
            List<DomainEntry> entries = p.domains();
            for (int i = 0; i < entries.size(); i++) {
                DomainEntry e = entries.get(i);
                if (e.verdict() != Verdict.ALLOW) {
                    continue;
                }
                judge(p, i, e, DomainMerge.ceilingView(ceiling, e.pattern()), narrowed, blocked);
            }
        }
        return new DriftReport(narrowed, blocked);
    }

    private static void judge(Policy p, int i, DomainEntry e, List<EffectiveEntry> view,
            List<NarrowedDomain> narrowed, List<BlockedDomain> blocked) {
        if (view.isEmpty()) {
            return;
        }
        int denied = 0;
        EffectiveEntry firstDeny = null;
        for (EffectiveEntry row : view) {
            if (!row.allows()) {
                denied++;
                if (firstDeny == null) {
                    firstDeny = row;
                }
            }
        }
        if (denied == view.size()) {
            boolean byEntry = firstDeny.decidedBy() != null;
            blocked.add(new BlockedDomain(e.pattern(), p.name(), i, byEntry ? "ceiling-denies" : "outside-ceiling",
                    byEntry ? firstDeny.decidedBy().policy() : null, byEntry ? firstDeny.decidedBy().entryIndex() : -1,
                    byEntry ? "a deny entry of the organization ceiling covers " + Quoted.input(e.pattern())
                            : "the organization ceiling does not allow " + Quoted.input(e.pattern())));
            return;
        }
        List<String> reasons = new ArrayList<>();
        if (denied > 0) {
            reasons.add("partly-outside-ceiling");
        }
        boolean scheme = false;
        boolean callers = false;
        boolean rules = false;
        boolean transport = false;
        for (EffectiveEntry row : view) {
            for (EffectiveComponent c : row.components()) {
                DomainEntry ce = c.entry();
                scheme |= ce.scheme() != null && (e.scheme() == null || !ce.scheme().equalsIgnoreCase(e.scheme()));
                callers |= ce.binaries() != null
                        && (e.binaries() == null || !new HashSet<>(ce.binaries()).containsAll(e.binaries()));
                rules |= ce.hasRules();
                transport |= e.effectiveTransport() == Transport.DIRECT && !e.hasRules()
                        && (ce.effectiveTransport() == Transport.UPSTREAM || ce.hasRules());
            }
        }
        addIf(reasons, scheme, "scheme-narrowed");
        addIf(reasons, callers, "callers-narrowed");
        addIf(reasons, rules, "rules-narrowed");
        addIf(reasons, transport, "transport-upstream");
        if (!reasons.isEmpty()) {
            narrowed.add(new NarrowedDomain(e.pattern(), p.name(), i, reasons,
                    "the organization ceiling narrows " + Quoted.input(e.pattern()) + ": " + String.join(", ", reasons)));
        }
    }

    private static void addIf(List<String> reasons, boolean condition, String code) {
        if (condition) {
            reasons.add(code);
        }
    }
}

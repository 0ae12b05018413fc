package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.compiler.ResolutionTooLarge;
import dev.stockade.policy.eval.EffectiveComponent;
import dev.stockade.policy.eval.EffectiveEntry;
import dev.stockade.policy.eval.EffectivePolicy;
import dev.stockade.policy.eval.EntryRef;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.HostPort;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * Stage "merge and clip domains": turns the grant policies and the ceiling into one first-match list.
 *
 * <p>Every policy is a layer whose first matching entry speaks for a host (a layer with no matching entry
 * is silent). A host's outcome is a function of the tuple of first matches, one per layer. The rows are
 * those tuples in lexicographic order (entry index, silent last), each with the conjunction of its
 * patterns; the first row a host matches is then exactly its own tuple, because an earlier row differs at
 * some layer in an entry that precedes that layer's first match, which therefore does not match the host.
 * Rows whose patterns cannot meet are dropped; rows after a deny are folded into one.
 *
 * <p>Rows are a product of layers, so crossing wildcards can multiply them: past
 * {@link ResolutionTooLarge#MAX_ROWS} rows or {@link ResolutionTooLarge#MAX_STEPS} intersections resolution
 * stops and throws {@link ResolutionTooLarge}, as it does past {@link ResolutionTooLarge#MAX_WILDCARD_ROWS} rows with
 * in-label wildcards.
 */
public final class DomainMerge {
    private final List<Layer> layers = new ArrayList<>();
    private final int grantCount;
    private final boolean hasCeiling;
    private final boolean grantDefaultAllows;
    private final Transport grantDefaultTransport;
    private final boolean ceilingDefaultAllows;
    private final Transport ceilingDefaultTransport;
    private final List<EffectiveEntry> rows = new ArrayList<>();
    private int steps;
    private int wildcardRows;

    private DomainMerge(List<IndexedEntries> ceiling, List<IndexedEntries> grants) {
        for (IndexedEntries p : grants) {
            layers.add(new Layer(p, false));
        }
        for (IndexedEntries p : ceiling) {
            layers.add(new Layer(p, true));
        }
        grantCount = grants.size();
        hasCeiling = !ceiling.isEmpty();
        grantDefaultAllows = !grants.isEmpty()
                && grants.stream().allMatch(p -> p.policy.effectiveDefaultVerdict() == Verdict.ALLOW);
        grantDefaultTransport = grants.stream()
                .anyMatch(p -> p.policy.effectiveDefaultTransport() == Transport.UPSTREAM)
                ? Transport.UPSTREAM : Transport.DIRECT;
        ceilingDefaultAllows = ceiling.stream().allMatch(p -> p.policy.effectiveDefaultVerdict() == Verdict.ALLOW);
        ceilingDefaultTransport = ceiling.stream()
                .anyMatch(p -> p.policy.effectiveDefaultTransport() == Transport.UPSTREAM)
                ? Transport.UPSTREAM : Transport.DIRECT;
    }

    /**
     * The effective policy of {@code grants} clipped by {@code ceiling} (empty: nothing clipped), over their entries
     * indexed beforehand ({@link #indexed}); a resolution that reuses a document's {@link IndexedEntries} skips
     * parsing it again.
     */
    public static EffectivePolicy mergeIndexed(List<IndexedEntries> ceiling, List<IndexedEntries> grants) {
        DomainMerge m = new DomainMerge(ceiling, grants);
        m.expand(0, null, new ArrayList<>());
        return new EffectivePolicy(m.rows, m.defaultVerdict(), m.defaultTransport(), m.defaultReason());
    }

    /** Each policy's entries parsed and indexed (once per resolution, not once per stage that reads them). */
    public static List<IndexedEntries> indexed(List<Policy> policies) {
        List<IndexedEntries> out = new ArrayList<>(policies.size());
        for (Policy p : policies) {
            out.add(IndexedEntries.of(p));
        }
        return out;
    }

    /**
     * The rows the ceiling alone gives the hosts of {@code pattern}: for drift. Each row's components are
     * ceiling components only; a row with none means the ceiling's default applies.
     */
    public static List<EffectiveEntry> ceilingView(List<IndexedEntries> ceiling, String pattern) {
        DomainMerge m = new DomainMerge(ceiling, List.of());
        DomainPattern p = DomainPattern.parse(pattern);
        if (p.kind() == DomainPattern.Kind.INVALID) {
            return List.of();
        }
        m.expandCeilingOnly(0, List.of(p), new ArrayList<>());
        return m.rows;
    }

    private Verdict defaultVerdict() {
        return grantDefaultAllows && (!hasCeiling || ceilingDefaultAllows) ? Verdict.ALLOW : Verdict.DENY;
    }

    private Transport defaultTransport() {
        if (defaultVerdict() != Verdict.ALLOW) {
            return null;
        }
        boolean upstream = grantDefaultTransport == Transport.UPSTREAM
                || (hasCeiling && ceilingDefaultTransport == Transport.UPSTREAM);
        return upstream ? Transport.UPSTREAM : Transport.DIRECT;
    }

    private ReasonCode defaultReason() {
        if (!grantDefaultAllows) {
            return ReasonCode.DEFAULT_DENY;
        }
        return defaultVerdict() == Verdict.ALLOW ? ReasonCode.DEFAULT_ALLOW : ReasonCode.CEILING_CLIPPED;
    }

    private record Pick(Layer layer, int index) {
        DomainEntry entry() {
            return layer.entries.get(index);
        }

        boolean denies() {
            return entry().verdict() != Verdict.ALLOW;
        }

        EffectiveComponent component() {
            return layer.component(index);
        }
    }

    /** Enumerates tuples layer by layer; {@code cur == null} stands for every host. */
    private void expand(int layer, List<DomainPattern> cur, List<Pick> chosen) {
        if (!chosen.isEmpty() && chosen.get(chosen.size() - 1).denies()) {
            emit(cur, chosen, layer); // every completion denies: one row stands for them all
            return;
        }
        if (layer == grantCount && chosen.isEmpty() && !grantDefaultAllows) {
            return; // no grant spoke and the grants' default denies: the program default covers it
        }
        if (layer == layers.size()) {
            if (cur != null) {
                emit(cur, chosen, layer);
            }
            return;
        }
        descend(layer, cur, chosen, false);
    }

    private void expandCeilingOnly(int layer, List<DomainPattern> cur, List<Pick> chosen) {
        if (!chosen.isEmpty() && chosen.get(chosen.size() - 1).denies()) {
            emit(cur, chosen, layer);
            return;
        }
        if (layer == layers.size()) {
            emit(cur, chosen, layer);
            return;
        }
        descend(layer, cur, chosen, true);
    }

    private void descend(int layer, List<DomainPattern> cur, List<Pick> chosen, boolean ceilingOnly) {
        Layer l = layers.get(layer);
        if (cur != null && cur.size() == 1 && cur.get(0).kind() == DomainPattern.Kind.EXACT
                && (cur.get(0).port() != HostPort.ANY || !l.hasPorts)) {
            // One host (on one port, or in a layer naming none): only the layer's first match can speak for it.
            int first = l.firstMatch(cur.get(0).literal(), cur.get(0).port());
            if (first >= 0) {
                chosen.add(new Pick(l, first));
            }
            next(layer + 1, cur, chosen, ceilingOnly);
            if (first >= 0) {
                chosen.remove(chosen.size() - 1);
            }
            return;
        }
        for (int j = 0; j < l.patterns.size(); j++) {
            if (++steps > ResolutionTooLarge.MAX_STEPS) {
                throw new ResolutionTooLarge("resolving these policies needs more than " + ResolutionTooLarge.MAX_STEPS
                        + " pattern intersections (wildcards of different policies that cross multiply);"
                        + " narrow the wildcards or split the policies");
            }
            DomainPattern p = l.patterns.get(j);
            List<DomainPattern> meet = cur == null ? (p.kind() == DomainPattern.Kind.INVALID ? null : List.of(p))
                    : DomainPattern.intersect(cur, p);
            if (meet == null) {
                continue;
            }
            chosen.add(new Pick(l, j));
            next(layer + 1, meet, chosen, ceilingOnly);
            chosen.remove(chosen.size() - 1);
            if (cur != null && DomainPattern.covers(p, cur)) {
                return; // every host of cur matches this entry: later entries and silence never speak
            }
        }
        next(layer + 1, cur, chosen, ceilingOnly);
    }

    private void next(int layer, List<DomainPattern> cur, List<Pick> chosen, boolean ceilingOnly) {
        if (ceilingOnly) {
            expandCeilingOnly(layer, cur, chosen);
        } else {
            expand(layer, cur, chosen);
        }
    }

    /**
     * A row for one host is reachable only if every layer's pick is that layer's first match for the host
     * (on the row's port; a row on every port is reached by the ports no entry names, whose first match
     * leaves out the entries naming a port); other single-host rows are shadowed by an earlier row and are
     * left out (they change no decision).
     */
    private boolean unreachable(List<DomainPattern> cur, List<Pick> chosen, int depth) {
        if (cur.size() != 1 || cur.get(0).kind() != DomainPattern.Kind.EXACT) {
            return false;
        }
        String host = cur.get(0).literal();
        int port = cur.get(0).port();
        int k = 0;
        for (int l = 0; l < depth; l++) {
            Layer layer = layers.get(l);
            int picked = k < chosen.size() && chosen.get(k).layer == layer ? chosen.get(k++).index : -1;
            if (layer.firstMatch(host, port) != picked) {
                return true;
            }
        }
        return false;
    }

    private void emit(List<DomainPattern> cur, List<Pick> chosen, int depth) {
        if (unreachable(cur, chosen, depth)) {
            return;
        }
        if (rows.size() >= ResolutionTooLarge.MAX_ROWS) {
            throw new ResolutionTooLarge("these policies resolve to more than " + ResolutionTooLarge.MAX_ROWS
                    + " effective rows; split the policies");
        }
        if (cur.stream().anyMatch(p -> p.kind() == DomainPattern.Kind.GENERAL)
                && ++wildcardRows > ResolutionTooLarge.MAX_WILDCARD_ROWS) {
            throw new ResolutionTooLarge("these policies resolve to more than " + ResolutionTooLarge.MAX_WILDCARD_ROWS
                    + " effective rows with in-label wildcards (wildcards of different policies that cross, such as"
                    + " `a1-*.x.com` and `*-b1.x.com`, make a row per pair); narrow the wildcards or split the"
                    + " policies");
        }
        List<String> patterns = new ArrayList<>(cur.size());
        for (DomainPattern p : cur) {
            patterns.add(p.text());
        }
        List<EffectiveComponent> grants = new ArrayList<>();
        List<EffectiveComponent> ceil = new ArrayList<>();
        for (Pick pick : chosen) {
            if (pick.denies()) {
                ReasonCode reason = pick.layer.ceiling ? ReasonCode.CEILING_CLIPPED : ReasonCode.ENTRY_DENY;
                EntryRef ref = pick.layer.ref(pick.index);
                rows.add(new EffectiveEntry(patterns, Verdict.DENY, null, reason, ref, componentsOf(chosen)));
                return;
            }
            (pick.layer.ceiling ? ceil : grants).add(pick.component());
        }
        List<EffectiveComponent> all = new ArrayList<>(grants);
        all.addAll(ceil);
        if (hasCeiling && ceil.isEmpty() && !ceilingDefaultAllows) {
            EntryRef by = grants.isEmpty() ? null : grants.get(0).source();
            rows.add(new EffectiveEntry(patterns, Verdict.DENY, null, ReasonCode.CEILING_CLIPPED, by, all));
            return;
        }
        boolean upstream = false;
        for (EffectiveComponent c : all) {
            upstream |= c.entry().effectiveTransport() == Transport.UPSTREAM || c.entry().hasRules();
        }
        upstream |= grants.isEmpty() && grantDefaultTransport == Transport.UPSTREAM;
        upstream |= hasCeiling && ceil.isEmpty() && ceilingDefaultTransport == Transport.UPSTREAM;
        EntryRef by = grants.isEmpty() ? null : grants.get(0).source();
        ReasonCode reason = grants.isEmpty() ? ReasonCode.DEFAULT_ALLOW : ReasonCode.ENTRY_ALLOW;
        rows.add(new EffectiveEntry(patterns, Verdict.ALLOW, upstream ? Transport.UPSTREAM : Transport.DIRECT, reason,
                by, all));
    }

    private static List<EffectiveComponent> componentsOf(List<Pick> chosen) {
        List<EffectiveComponent> out = new ArrayList<>(chosen.size());
        for (Pick p : chosen) {
            out.add(p.component());
        }
        return out;
    }
}

package dev.stockade.api.impact;

import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.impact.SuggestOptions;
import dev.stockade.policy.impact.Suggestion;
import dev.stockade.policy.impact.SuggestionText;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;

/**
 * A policy-suggest answer: the suggested policy as the text {@code stockade policy suggest} writes (the header comment,
 * then the YAML), and the header's facts as fields, so that a UI can show what the suggestion rests on without reading
 * comments.
 *
 * @param since         start of the window read
 * @param until         end of the window read
 * @param policy        the header and the policy, exactly the file the CLI writes
 * @param yaml          the policy alone (what {@code POST .../policies} takes as {@code application/yaml})
 * @param entries       entries read
 * @param admitted      allowed egress decisions and connector tool calls the policy admits
 * @param denied        entries recorded as denied, never opened
 * @param notPolicyAllow entries that are not a policy's allow (the proxy's or platform's own verdicts, platform
 *                      tools, entries missing fields)
 * @param otherCallers  entries of other sandboxes or callers than the selector's
 * @param firstSeen     the earliest entry read, {@code null} for an empty window
 * @param lastSeen      the latest entry read, {@code null} for an empty window
 * @param wildcards     host wildcards made, each with the observed hosts that justified it
 * @param notAdmitted   allowed hosts no pattern can name, left out
 * @param rules         the generalisation thresholds used
 * @param limits        the caps of the read
 */
@Introspected
public record SuggestView(Instant since, Instant until, String policy, String yaml, long entries, long admitted,
                          long denied, long notPolicyAllow, long otherCallers, @Nullable Instant firstSeen,
                          @Nullable Instant lastSeen, List<Wildcard> wildcards, List<String> notAdmitted, Rules rules,
                          ImpactView.Limits limits) {

    /** A host wildcard and the hosts it stands for. */
    @Introspected
    public record Wildcard(String pattern, List<String> hosts) {
    }

    /** The thresholds of the generalisation rules (docs/policy-impact.md, "The rules"). */
    @Introspected
    public record Rules(int minSubdomains, int minPaths) {
    }

    static SuggestView of(TrailWindow window, Suggestion s, SuggestOptions options, ImpactLimits limits) {
        SuggestionText text = SuggestionText.of(s, options);
        return new SuggestView(window.since(), window.until(), text.text(), text.yaml(), s.entries(), s.used(),
                s.denied(), s.notUsable(), s.otherSandbox(), s.firstSeen(), s.lastSeen(),
                s.wildcards().stream().map(w -> new Wildcard(w.pattern(), w.hosts())).toList(), s.unnamedHosts(),
                new Rules(options.minSubdomains(), options.minPaths()),
                new ImpactView.Limits(limits.maxWindow().toDays(), limits.maxEntries(), limits.maxGroups()));
    }
}

package dev.stockade.policy.impact;

import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.PolicyWriter;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.TerminalText;
import java.util.stream.Collectors;

/**
 * A suggestion as the file a person reviews: the comment that says what window and how much traffic it rests on, then
 * the policy as YAML. One rendering for the CLI and the platform, so that both hand out the same text; the YAML is read
 * back by the policy reader first, so a policy the platform would refuse is never handed out.
 *
 * @param header the opening comment lines, each ending in a newline; recorded text in it is escaped
 * @param yaml   the policy document
 */
public record SuggestionText(String header, String yaml) {
    /** Longest recorded list on one comment line before it is clipped. */
    private static final int MAX_LINE = 400;

    /**
     * Renders {@code s}, made with {@code options}; throws {@link IllegalStateException} when the policy does not read
     * back valid (a defect of the suggester, never of the trail).
     */
    public static SuggestionText of(Suggestion s, SuggestOptions options) {
        String yaml = PolicyWriter.toYaml(s.policy());
        ReadResult check = PolicyReader.read("suggested.yaml", yaml);
        if (!check.valid()) {
            throw new IllegalStateException("the suggestion is not a valid policy: " + TerminalText.escape(
                    check.problems().stream().filter(Problem::isError).map(p -> p.pointer() + " " + p.message())
                            .collect(Collectors.joining("; "))));
        }
        return new SuggestionText(header(s, options), yaml);
    }

    /** The header and the policy, as written to a file. */
    public String text() {
        return header + yaml;
    }

    private static String header(Suggestion s, SuggestOptions options) {
        StringBuilder out = new StringBuilder();
        out.append("# suggested by `stockade policy suggest` from ").append(s.entries()).append(" audit entries");
        out.append(s.firstSeen() == null ? " (an empty window)" : " recorded from " + s.firstSeen() + " to "
                + s.lastSeen()).append('\n');
        out.append("# admits ").append(s.used()).append(" allowed entries; left out: ").append(s.denied())
                .append(" denied, ").append(s.notUsable()).append(" not a policy's allow");
        if (s.otherSandbox() > 0) {
            out.append(", ").append(s.otherSandbox()).append(" of other sandboxes");
        }
        out.append('\n');
        out.append("# rules: --min-subdomains ").append(options.minSubdomains()).append(", --min-paths ")
                .append(options.minPaths()).append(" (docs/policy-impact.md, \"Suggest\")\n");
        for (Suggestion.MadeWildcard w : s.wildcards()) {
            out.append("# wildcard ").append(w.pattern()).append(" from ").append(w.hosts().size()).append(" hosts: ")
                    .append(line(String.join(", ", w.hosts()))).append('\n');
        }
        if (!s.unnamedHosts().isEmpty()) {
            out.append("# not admitted (no pattern can name them): ").append(line(String.join(", ", s.unnamedHosts())))
                    .append('\n');
        }
        return out.toString();
    }

    /** Recorded text on one comment line: control characters escaped, long lists clipped. */
    private static String line(String text) {
        String one = TerminalText.escape(text);
        return one.length() <= MAX_LINE ? one : one.substring(0, MAX_LINE) + " ...";
    }
}

package dev.stockade.cli;

import dev.stockade.policy.impact.Suggestion;
import dev.stockade.policy.model.TerminalText;

/**
 * The comment that opens a suggested policy: the window it came from and what it rests on, so that whoever reviews
 * the file knows how much traffic justified it. Recorded text is escaped: a comment line never ends early.
 */
final class SuggestHeader {
    private SuggestHeader() {
    }

    static String of(Suggestion s, int minSubdomains, int minPaths) {
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
        out.append("# rules: --min-subdomains ").append(minSubdomains).append(", --min-paths ").append(minPaths)
                .append(" (docs/policy-impact.md, \"Suggest\")\n");
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
        return one.length() <= 400 ? one : one.substring(0, 400) + " ...";
    }
}

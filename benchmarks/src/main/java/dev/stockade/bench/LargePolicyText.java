package dev.stockade.bench;

/**
 * A hand-kept 10,000-entry policy file as {@code policy fmt} meets it: keys out of the spec's order, four-space
 * indentation, needless quotes, comments above every tenth entry and beside every fiftieth, rules on every eighth
 * and a caller fence on every thirteenth. Deterministic; sized to stay under the reader's limits (1 MiB, 100,000
 * values) so that the formatter, not a limit, is what is measured.
 */
final class LargePolicyText {
    private LargePolicyText() {
    }

    /**
     * The policy text with {@code entries} entries; with {@code anchors}, every thousandth verdict carries a YAML
     * anchor, which {@code fmt} refuses (docs/semantics.md: anchors are refused, not expanded).
     */
    static String of(int entries, boolean anchors) {
        StringBuilder b = new StringBuilder(entries * 96);
        b.append("# the fleet's egress, kept by hand; ").append(entries).append(" entries\n");
        b.append("name: \"fleet\"\n");
        b.append("allowedDomains:\n");
        for (int i = 0; i < entries; i++) {
            entry(b, i, anchors && i % 1000 == 999);
        }
        b.append("# everything else stays closed\n");
        b.append("networkDefaultVerdict: 'deny'\n");
        return b.toString();
    }

    private static void entry(StringBuilder b, int i, boolean anchor) {
        if (i % 10 == 0) {
            b.append("    # tenants ").append(i).append(" to ").append(i + 9).append('\n');
        }
        b.append("    -   verdict: ").append(anchor ? "&v" + i + " " : "").append("\"allow\"");
        if (i % 50 == 0) {
            b.append("   # reviewed 2026-11-").append(10 + i % 20);
        }
        b.append('\n');
        String pattern = i % 5 == 4 ? "'*.zone" + i + ".example.net'" : "\"svc" + i + ".tenant" + i % 97
                + ".example.com\"";
        b.append("        pattern: ").append(pattern).append('\n');
        if (i % 8 == 0) {
            b.append("        rules:\n");
            b.append("            - {path: \"/repos/*/pulls\", method: \"GET\"}\n");
            b.append("            - {method: POST, path: '/repos/*/issues/**'}\n");
        }
        if (i % 13 == 0) {
            b.append("        binaries: [ \"/usr/bin/git\" ]\n");
        }
    }
}

package dev.stockade.cli;

import dev.stockade.cli.testing.CoverageItem;
import dev.stockade.cli.testing.CoverageReport;
import dev.stockade.policy.model.TerminalText;
import java.io.PrintWriter;

/** The readable form of {@code policy test --coverage}: a line per policy file, then what no case reached. */
final class CoverageText {
    private CoverageText() {
    }

    /** Prints {@code report}: the total, each file with its kinds, and each item not covered as {@code file:line}. */
    static void print(PrintWriter out, CoverageReport report) {
        out.println("coverage: " + report.covered() + "/" + report.total() + " items (" + report.percent() + "%)");
        for (CoverageReport.FileCoverage f : report.files()) {
            out.println("  " + TerminalText.escape(f.file()) + "  " + f.covered() + "/" + f.total() + " (" + f.percent()
                    + "%): entries " + tally(f.entries()) + ", rules " + tally(f.rules()) + ", graphql fences "
                    + tally(f.graphqlFences()));
            for (CoverageItem item : f.uncovered()) {
                out.println("    not covered: " + TerminalText.escape(item.file() + (item.line() > 0 ? ":" + item.line() : "")
                        + ": " + item.kind().wire() + " " + item.label() + " (policy `" + item.policy() + "`)"));
            }
        }
    }

    private static String tally(CoverageReport.Tally t) {
        return t.covered() + "/" + t.total();
    }
}

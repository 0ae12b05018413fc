package dev.stockade.cli.testing;

import java.util.List;

/**
 * What the decision cases of one test run exercised, per policy file: the typed body of
 * {@code stockade policy test --coverage --format json} and the source of its text report.
 *
 * @param covered items exercised, over every file
 * @param total   items in every policy a decision case resolved
 * @param percent {@code covered} of {@code total}, 100 when there is nothing to cover
 * @param files   one entry per policy file (inline policies count under their test file), in path order
 */
public record CoverageReport(int covered, int total, double percent, List<FileCoverage> files) {

    public CoverageReport {
        files = List.copyOf(files);
    }

    /**
     * One policy file's coverage.
     *
     * @param uncovered the items no decision case reached, in file order
     */
    public record FileCoverage(String file, int covered, int total, double percent, Tally entries, Tally rules,
            Tally graphqlFences, List<CoverageItem> uncovered) {

        public FileCoverage {
            uncovered = List.copyOf(uncovered);
        }
    }

    /** Covered out of total for one kind of item. */
    public record Tally(int covered, int total) {
    }

    /**
     * {@code covered} of {@code total} in percent, rounded down to one decimal (so 99.96 never shows as 100); 100 when
     * {@code total} is 0.
     */
    static double percent(int covered, int total) {
        return total == 0 ? 100.0 : Math.floor(1000.0 * covered / total) / 10.0;
    }
}

package dev.stockade.policy.impact;

/**
 * The parameters of the generalisation rules of {@code policy suggest} (docs/policy-impact.md, "Suggest"), explicit
 * per call: how much observed traffic justifies a wildcard, and which trail entries count.
 *
 * @param name          the suggested policy's name
 * @param minSubdomains distinct subdomains of one registrable domain (same port) that become {@code *.domain}; at
 *                      least 2
 * @param minPaths      distinct rules (exact paths or prefixes already made) below one path prefix, for one method,
 *                      that become {@code prefix/**}; at least 2
 * @param sandbox       only the entries of this sandbox (egress) or caller id (tool calls); {@code null} for all
 * @param maxEntries    the most entries one suggestion reads; one more is refused, never silently dropped
 */
public record SuggestOptions(String name, int minSubdomains, int minPaths, String sandbox, long maxEntries) {
    /** Name {@code suggested}, 3 subdomains, 4 paths, every sandbox, 1,000,000 entries. */
    public static SuggestOptions defaults() {
        return new SuggestOptions("suggested", 3, 4, null, ImpactLimits.defaults().maxEntries());
    }

    public SuggestOptions {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("the suggested policy needs a name");
        }
        if (minSubdomains < 2 || minPaths < 2) {
            throw new IllegalArgumentException("--min-subdomains and --min-paths must be at least 2: one observation"
                    + " never justifies a wildcard");
        }
        if (maxEntries < 1) {
            throw new IllegalArgumentException("the entry cap must be positive");
        }
    }

    public SuggestOptions withSandbox(String value) {
        return new SuggestOptions(name, minSubdomains, minPaths, value, maxEntries);
    }

    public SuggestOptions withMinSubdomains(int value) {
        return new SuggestOptions(name, value, minPaths, sandbox, maxEntries);
    }

    public SuggestOptions withMinPaths(int value) {
        return new SuggestOptions(name, minSubdomains, value, sandbox, maxEntries);
    }

    public SuggestOptions withName(String value) {
        return new SuggestOptions(value, minSubdomains, minPaths, sandbox, maxEntries);
    }
}

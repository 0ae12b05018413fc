package dev.stockade.policy.eval;

import dev.stockade.policy.eval.internal.PathCheck;
import java.util.List;

/**
 * What a request path is, decided once in the core before any path glob judges it (docs/semantics.md,
 * "What a request path is"): either refused (it never matches a path glob, so only rules without a
 * path admit it) or admitted with every reading a mainstream origin could give it, each of which a
 * path glob must match. Hosts and tools use {@link #of} to explain a decision; the decision program
 * applies the same rule itself.
 */
public sealed interface RequestPath permits RequestPath.Readings, RequestPath.Refused {

    /** The path's readings: its text first, then the text without {@code ;params} when it has any. */
    record Readings(List<String> readings) implements RequestPath {
    }

    /** A path no path glob judges, because origins could serve another path than its text says. */
    record Refused(String path) implements RequestPath {
    }

    /** Classifies a path (without its query string). */
    static RequestPath of(String path) {
        String[] r = PathCheck.readings(path);
        if (r == PathCheck.REFUSED) {
            return new Refused(path);
        }
        return new Readings(r == null ? List.of(path) : List.of(r));
    }
}

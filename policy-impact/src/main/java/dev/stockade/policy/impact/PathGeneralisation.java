package dev.stockade.policy.impact;

import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.eval.RequestPath;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The path rule of {@code policy suggest}: the observed paths of one method on one entry, kept exact, and replaced
 * by {@code prefix/**} only where at least {@code minPaths} distinct rules lie below one prefix (docs/policy-impact.md,
 * "Suggest"). Deepest prefixes are judged first and a prefix already made counts as one rule above it, so one busy
 * folder never widens its parent; the root is never generalised ({@code /**} is every path).
 */
final class PathGeneralisation {
    private static final class Node {
        private final Map<String, Node> children = new TreeMap<>();
        private boolean exact;
        private boolean generalised;
    }

    private PathGeneralisation() {
    }

    /**
     * Whether a recorded path can be written as a path rule that matches it and nothing it would not: the core reads
     * it as itself only (no {@code ;params}, no dot or empty segments, nothing encoded), it holds no {@code *}, and
     * the glob language accepts it.
     */
    static boolean representable(String path) {
        if (path == null || path.indexOf('*') >= 0 || !path.startsWith("/")) {
            return false;
        }
        return RequestPath.of(path) instanceof RequestPath.Readings r && r.readings().size() == 1
                && Glob.compile(GlobKind.PATH, path).ok();
    }

    /** The path globs covering {@code paths} (each {@link #representable}), sorted. */
    static List<String> generalise(Collection<String> paths, int minPaths) {
        Node root = new Node();
        for (String path : paths) {
            Node at = root;
            for (String segment : path.substring(1).split("/", -1)) {
                at = at.children.computeIfAbsent(segment, s -> new Node());
            }
            at.exact = true;
        }
        for (Node child : root.children.values()) {
            judge(child, minPaths);
        }
        List<String> out = new ArrayList<>();
        root.children.forEach((segment, child) -> emit(child, "/" + segment, out));
        out.sort(null);
        return out;
    }

    /** Generalises below {@code node} first, then {@code node}; answers how many rules {@code node} stands for. */
    private static int judge(Node node, int minPaths) {
        int below = 0;
        for (Node child : node.children.values()) {
            below += judge(child, minPaths);
        }
        if (below >= minPaths) {
            node.generalised = true;
            below = 1;
        }
        return below + (node.exact ? 1 : 0);
    }

    private static void emit(Node node, String path, List<String> out) {
        if (node.exact) {
            out.add(path);
        }
        if (node.generalised) {
            out.add(path + "/**"); // `/a/**` does not match `/a` itself: that one stays exact above
            return;
        }
        node.children.forEach((segment, child) -> emit(child, path + "/" + segment, out));
    }
}

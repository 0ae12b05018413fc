package dev.stockade.policy.eval.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the first row (lowest index) whose patterns match a host: an exact-name table whose answers
 * are precomputed at compile time (so a hit costs one lookup), and a trie over reversed labels for
 * wildcard rows, walked from the rightmost label.
 *
 * <p>INVARIANT: every row index held at a trie node, in {@code exact} or in {@code ipExact} is the
 * lowest index among the rows of that kind matching it, so the first match is a minimum over candidates.
 */
final class DomainIndex {
    static final int NONE = Integer.MAX_VALUE;

    private static final class Node {
        final FoldedTable<Node> children = new FoldedTable<>();
        /** Lowest index of a {@code *.suffix} row whose suffix ends at this node. */
        int wildRow = NONE;
        /** Rows with a {@code *} inside a label (or several patterns) anchored here, ascending. */
        int[] generalRows = new int[0];
    }

    private final Node root = new Node();
    /** Exact host name to the first row matching it (exact rows and wildcards already compared). */
    private final FoldedTable<Integer> exact = new FoldedTable<>();
    /** IP literal to the first exact row naming it: wildcards never match an IP literal. */
    private final FoldedTable<Integer> ipExact = new FoldedTable<>();
    private final List<DomainPattern>[] rowPatterns;

    @SuppressWarnings("unchecked")
    DomainIndex(List<List<DomainPattern>> rows) {
        rowPatterns = rows.toArray(new List[0]);
        List<String> exactNames = new ArrayList<>();
        List<Integer> exactRows = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            List<DomainPattern> patterns = rows.get(i);
            DomainPattern head = patterns.get(0);
            if (patterns.size() == 1 && head.kind() == DomainPattern.Kind.EXACT) {
                exactNames.add(head.literal());
                exactRows.add(i);
            } else if (patterns.size() == 1 && head.kind() == DomainPattern.Kind.SUFFIX) {
                Node node = nodeFor(head.literalSuffixInternal());
                node.wildRow = Math.min(node.wildRow, i);
            } else if (patterns.stream().noneMatch(p -> p.kind() == DomainPattern.Kind.INVALID)) {
                Node node = nodeFor(longestSuffix(patterns));
                int[] g = Arrays.copyOf(node.generalRows, node.generalRows.length + 1);
                g[g.length - 1] = i;
                node.generalRows = g;
            }
            // INVALID patterns match nothing: the row is left out of the index.
        }
        for (int k = 0; k < exactNames.size(); k++) {
            String name = exactNames.get(k);
            int row = exactRows.get(k);
            boolean ip = HostName.isIpv4(name, name.length()) || HostName.isIpv6(name);
            FoldedTable<Integer> table = ip ? ipExact : exact;
            Integer prior = table.get(name);
            if (prior != null) {
                continue; // an earlier exact row for the same name wins
            }
            int wild = ip ? NONE : walk(name, 0, name.length());
            table.put(name, Math.min(row, wild));
        }
    }

    private static String[] longestSuffix(List<DomainPattern> patterns) {
        String[] best = new String[0];
        for (DomainPattern p : patterns) {
            String[] s = p.literalSuffixInternal();
            if (s.length > best.length) {
                best = s;
            }
        }
        return best;
    }

    private Node nodeFor(String[] labelsLeftmostFirst) {
        Node node = root;
        for (int i = labelsLeftmostFirst.length - 1; i >= 0; i--) {
            String label = labelsLeftmostFirst[i];
            Node child = node.children.get(label);
            if (child == null) {
                child = new Node();
                node.children.put(label, child);
            }
            node = child;
        }
        return node;
    }

    /** First row matching the ASCII name {@code host[0, end)}, or {@link #NONE}. */
    int lookupName(String host, int end) {
        Integer hit = exact.get(host, 0, end);
        if (hit != null) {
            return hit;
        }
        return walk(host, 0, end);
    }

    /** First exact row naming the IP literal {@code key}, or {@link #NONE}. */
    int lookupIp(String key, int end) {
        Integer hit = ipExact.get(key, 0, end);
        return hit == null ? NONE : hit;
    }

    /** The lowest wildcard or general row matching {@code host[from, to)}. */
    private int walk(String host, int from, int to) {
        Node node = root;
        int best = NONE;
        best = Math.min(best, node.wildRow);
        best = general(node, host, from, to, best);
        int end = to;
        while (true) {
            int dot = host.lastIndexOf('.', end - 1);
            int start = dot < from ? from : dot + 1;
            Node child = node.children.get(host, start, end);
            if (child == null) {
                return best;
            }
            node = child;
            boolean more = start > from;
            if (more && node.wildRow < best) {
                best = node.wildRow;
            }
            best = general(node, host, from, to, best);
            if (!more) {
                return best;
            }
            end = start - 1;
        }
    }

    private int general(Node node, String host, int from, int to, int best) {
        int[] rows = node.generalRows;
        if (rows.length == 0) {
            return best;
        }
        CharSequence normal = normalised(host, from, to);
        for (int row : rows) {
            if (row >= best) {
                return best;
            }
            if (matchesAll(rowPatterns[row], normal)) {
                return row;
            }
        }
        return best;
    }

    private static CharSequence normalised(String host, int from, int to) {
        boolean lower = true;
        for (int i = from; i < to && lower; i++) {
            char c = host.charAt(i);
            lower = !(c >= 'A' && c <= 'Z');
        }
        if (lower && from == 0 && to == host.length()) {
            return host;
        }
        return host.substring(from, to).toLowerCase(java.util.Locale.ROOT);
    }

    private static boolean matchesAll(List<DomainPattern> patterns, CharSequence host) {
        for (DomainPattern p : patterns) {
            if (!p.matches(host)) {
                return false;
            }
        }
        return true;
    }
}

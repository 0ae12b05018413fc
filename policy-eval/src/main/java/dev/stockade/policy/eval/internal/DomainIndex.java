package dev.stockade.policy.eval.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the first row (lowest index) whose patterns match a host.
 *
 * <ul>
 *   <li>Exact names: a {@code HashMap} from the normalised name to its precomputed answer (wildcards
 *       that come earlier already compared at compile time), so a hit costs the host's cached hash code
 *       and one intrinsic {@code equals}.</li>
 *   <li>Wildcards: one right-to-left pass over the host computes, at each dot, the hash of the suffix
 *       to its right and probes a table of wildcard suffixes ({@code *.suffix} rows, and rows with
 *       {@code *} inside a label anchored at their literal suffix), confirming a hit with
 *       {@code regionMatches}. The same pass validates the host.</li>
 * </ul>
 *
 * <p>INVARIANT: every row index stored is the lowest among the rows of its kind and key, so the first
 * match is a minimum over candidates; nothing here allocates for a host already in normal form.
 */
final class DomainIndex {
    static final int NONE = Integer.MAX_VALUE;
    /** The host is not a valid name. */
    static final int INVALID = -1;
    /** The host holds upper case, non-ASCII or a trailing dot: normalise first. */
    static final int NOT_NORMAL = -2;
    /** The host is a dotted-quad IPv4 literal. */
    static final int IPV4 = -3;

    private static final byte LETTER = 1;
    private static final byte DIGIT = 2;
    private static final byte DOT = 3;
    private static final byte UPPER = 4;
    /** Character classes of ASCII, so the scan decides each character with one load; 0 is invalid. */
    private static final byte[] CLASS = new byte[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            CLASS[c] = LETTER;
            CLASS[c - 32] = UPPER;
        }
        for (char c = '0'; c <= '9'; c++) {
            CLASS[c] = DIGIT;
        }
        CLASS['-'] = LETTER;
        CLASS['_'] = LETTER;
        CLASS['.'] = DOT;
    }

    /** Rows anchored at one literal suffix. */
    private static final class Suffix {
        final String text;
        final int hash;
        int wildRow = NONE;
        int[] generalRows = new int[0];
        Suffix next;

        Suffix(String text, int hash) {
            this.text = text;
            this.hash = hash;
        }
    }

    private final Map<String, Integer> exact;
    private final Map<String, Integer> ipExact = new HashMap<>();
    private final Suffix root = new Suffix("", 0);
    private Suffix[] table = new Suffix[16];
    private int suffixes;
    private final List<List<DomainPattern>> rowPatterns;

    DomainIndex(List<List<DomainPattern>> rows) {
        rowPatterns = List.copyOf(rows);
        List<String> exactNames = new ArrayList<>(rows.size());
        List<Integer> exactRows = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            List<DomainPattern> patterns = rows.get(i);
            DomainPattern head = patterns.get(0);
            if (!valid(patterns)) {
                continue; // an invalid pattern matches nothing: the row is left out of the index
            }
            if (patterns.size() == 1 && head.kind() == DomainPattern.Kind.EXACT) {
                exactNames.add(head.literal());
                exactRows.add(i);
            } else if (patterns.size() == 1 && head.kind() == DomainPattern.Kind.SUFFIX) {
                Suffix s = suffix(head.literal());
                s.wildRow = Math.min(s.wildRow, i);
            } else {
                Suffix s = suffix(String.join(".", longestSuffix(patterns)));
                int[] g = Arrays.copyOf(s.generalRows, s.generalRows.length + 1);
                g[g.length - 1] = i;
                s.generalRows = g;
            }
        }
        exact = new HashMap<>(Math.max(16, exactNames.size() * 2));
        for (int k = 0; k < exactNames.size(); k++) {
            String name = exactNames.get(k);
            int row = exactRows.get(k);
            boolean ip = HostName.isIpv4(name, name.length()) || HostName.isIpv6(name);
            Map<String, Integer> map = ip ? ipExact : exact;
            if (map.containsKey(name)) {
                continue; // an earlier exact row for the same name wins
            }
            int wild = ip ? NONE : scan(name);
            map.put(name, wild >= 0 ? Math.min(row, wild) : row);
        }
    }

    private static boolean valid(List<DomainPattern> patterns) {
        for (DomainPattern p : patterns) {
            if (p.kind() == DomainPattern.Kind.INVALID) {
                return false;
            }
        }
        return true;
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

    /** Hash of {@code s[from, to)} read right to left, as {@link #scan} computes it. */
    private static int suffixHash(String s, int from, int to) {
        int h = 0;
        for (int i = to - 1; i >= from; i--) {
            h = 31 * h + s.charAt(i);
        }
        return h;
    }

    private Suffix suffix(String text) {
        if (text.isEmpty()) {
            return root;
        }
        int hash = suffixHash(text, 0, text.length());
        for (Suffix s = table[hash & (table.length - 1)]; s != null; s = s.next) {
            if (s.hash == hash && s.text.equals(text)) {
                return s;
            }
        }
        if (++suffixes * 2 > table.length) {
            grow();
        }
        Suffix s = new Suffix(text, hash);
        int slot = hash & (table.length - 1);
        s.next = table[slot];
        table[slot] = s;
        return s;
    }

    private void grow() {
        Suffix[] old = table;
        table = new Suffix[old.length * 2];
        for (Suffix head : old) {
            for (Suffix s = head; s != null;) {
                Suffix next = s.next;
                int slot = s.hash & (table.length - 1);
                s.next = table[slot];
                table[slot] = s;
                s = next;
            }
        }
    }

    /** First exact row for a normalised, valid name; {@code null} when none names it. */
    Integer exact(String host) {
        return exact.get(host);
    }

    /** First exact row naming the IP literal {@code key}, or {@link #NONE}. */
    int ip(String key) {
        Integer hit = ipExact.get(key);
        return hit == null ? NONE : hit;
    }

    /**
     * Validates {@code host} and finds the lowest wildcard or general row matching it: the row,
     * {@link #NONE}, {@link #INVALID}, {@link #NOT_NORMAL} or {@link #IPV4}.
     */
    int scan(String host) {
        int n = host.length();
        if (n == 0 || n > 253) {
            return n == 0 ? INVALID : NOT_NORMAL;
        }
        if (host.charAt(n - 1) == '.') {
            return NOT_NORMAL;
        }
        int best = root.wildRow;
        best = general(root, host, best);
        int h = 0;
        int labelEnd = n;
        boolean digitsAndDots = true;
        for (int i = n - 1; i >= 0; i--) {
            char c = host.charAt(i);
            byte kind = c < 128 ? CLASS[c] : UPPER;
            if (kind == LETTER) {
                digitsAndDots = false;
            } else if (kind == DOT) {
                if (i == labelEnd - 1 || labelEnd - i - 1 > 63 || i == 0) {
                    return INVALID;
                }
                best = probe(host, i + 1, h, best);
                labelEnd = i;
            } else if (kind != DIGIT) {
                return kind == UPPER ? NOT_NORMAL : INVALID;
            }
            h = 31 * h + c;
        }
        if (labelEnd > 63) {
            return INVALID;
        }
        if (digitsAndDots && HostName.isIpv4(host, n)) {
            return IPV4;
        }
        return best;
    }

    private int probe(String host, int from, int hash, int best) {
        for (Suffix s = table[hash & (table.length - 1)]; s != null; s = s.next) {
            if (s.hash == hash && s.text.length() == host.length() - from
                    && host.regionMatches(from, s.text, 0, s.text.length())) {
                if (s.wildRow < best) {
                    best = s.wildRow;
                }
                return general(s, host, best);
            }
        }
        return best;
    }

    private int general(Suffix s, String host, int best) {
        for (int row : s.generalRows) {
            if (row >= best) {
                return best;
            }
            if (matchesAll(rowPatterns.get(row), host)) {
                return row;
            }
        }
        return best;
    }

    private static boolean matchesAll(List<DomainPattern> patterns, String host) {
        for (DomainPattern p : patterns) {
            if (!p.matches(host)) {
                return false;
            }
        }
        return true;
    }
}

package dev.stockade.policy.eval.internal;

import dev.stockade.policy.glob.DomainPattern;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Finds the first row (lowest index) whose patterns match a host.
 *
 * <p>One open-addressing table holds every exact name and every wildcard suffix ({@code *.suffix} rows,
 * and rows with {@code *} inside a label anchored at their literal suffix), keyed by the text's
 * {@link String#hashCode()}:
 *
 * <ul>
 *   <li>An exact name costs the host's cached hash code and one {@code equals}: its answer (the lowest of
 *       its exact row and every wildcard row that covers it) is computed at build time.</li>
 *   <li>Otherwise the suffixes to probe are only those whose length some wildcard has and which start
 *       right after a dot of the host. The hash of a suffix follows from the host's hash code and the hash
 *       of the prefix in front of it ({@code h(host) = h(prefix) * 31^|suffix| + h(suffix)}), so the probe
 *       reads the prefix only; a hit is confirmed with {@code regionMatches}.</li>
 *   <li>Validation reads each character once through a class table, without a branch per character:
 *       what is left of the suffix that gave the answer when a wildcard matched (that suffix equals a
 *       valid stored text), the whole host otherwise (to tell an invalid or not-normalised host from a
 *       miss).</li>
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
    /** {@link #exact}: no exact row names the host. */
    static final int ABSENT = -4;

    /** Character flags; a name in normal form holds only {@code 0}, {@link #LETTER} and {@link #DOT}. */
    private static final int LETTER = 1;
    private static final int DOT = 2;
    private static final int UPPER = 4;
    private static final int BAD = 8;
    /** Flags of the Latin-1 characters (above them, the high byte itself flags the character). */
    private static final byte[] FLAGS = new byte[256];
    /** {@code 31^k}, the weight of a suffix of length {@code k} in the hash of the whole host. */
    private static final int[] POW31 = new int[256];

    static {
        Arrays.fill(FLAGS, (byte) BAD);
        for (char c = 'a'; c <= 'z'; c++) {
            FLAGS[c] = LETTER;
            FLAGS[c - 32] = UPPER;
        }
        for (char c = '0'; c <= '9'; c++) {
            FLAGS[c] = 0;
        }
        FLAGS['-'] = LETTER;
        FLAGS['_'] = LETTER;
        FLAGS['.'] = DOT;
        for (int c = 0x80; c < 0x100; c++) {
            FLAGS[c] = UPPER; // non-ASCII: IDNA may turn it into a name
        }
        POW31[0] = 1;
        for (int k = 1; k < POW31.length; k++) {
            POW31[k] = POW31[k - 1] * 31;
        }
    }

    /** Wildcard rows anchored at one literal suffix. */
    private static final class Suffix {
        int wildRow = NONE;
        int[] generalRows = new int[0];
        /** Rows in {@link #generalRows} while the index is built (the array is trimmed to it after). */
        int generalCount;
        /** The suffix holds nothing but digits and dots, so it could be the tail of an IPv4 literal. */
        boolean numeric;

        void trim() {
            if (generalRows.length != generalCount) {
                generalRows = Arrays.copyOf(generalRows, generalCount);
            }
        }
    }

    private static final long HASH_BITS = 0xFFFF_FFFF_0000_0000L;
    private static final long PRESENT = 0x8000_0000L;

    // The table: parallel arrays by slot. table[slot] is 0 when the slot is empty, else the text's hash
    // code in the high word and, in the low word, PRESENT | (suffix id + 1, or 0 for a name only).
    private final int mask;
    /** {@code 32 - log2(capacity)}: {@link #spread} keeps the top bits of the product. */
    private final int shift;
    private final long[] table;
    private final String[] texts;
    /** Answer for a host equal to the text, or {@link #ABSENT} when no exact row names it. */
    private final int[] exactAnswers;
    /** The suffixes by id, dense, so the rows of a hit are one load away. */
    private final Suffix[] suffixes;
    /** Distinct lengths of the suffixes in the table, longest first. */
    private final int[] suffixLengths;
    /** Rows with no literal suffix (a lone {@code *}, or {@code *} in the last label). */
    private final Suffix root = new Suffix();
    private final Map<String, Integer> ipExact = new HashMap<>();
    private final List<List<DomainPattern>> rowPatterns;

    DomainIndex(List<List<DomainPattern>> rows) {
        rowPatterns = List.copyOf(rows);
        Map<String, Integer> exactNames = new LinkedHashMap<>();
        Map<String, Suffix> suffixTexts = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            List<DomainPattern> patterns = rows.get(i);
            DomainPattern head = patterns.get(0);
            if (!valid(patterns)) {
                continue; // an invalid pattern matches nothing: the row is left out of the index
            }
            if (patterns.size() == 1 && head.kind() == DomainPattern.Kind.EXACT) {
                exactNames.putIfAbsent(head.literal(), i); // an earlier exact row for the same name wins
            } else if (patterns.size() == 1 && head.kind() == DomainPattern.Kind.SUFFIX) {
                Suffix s = head.literal().isEmpty() ? root : suffixTexts.computeIfAbsent(head.literal(), t -> new Suffix());
                s.wildRow = Math.min(s.wildRow, i);
            } else {
                String text = String.join(".", longestSuffix(patterns));
                Suffix s = text.isEmpty() ? root : suffixTexts.computeIfAbsent(text, t -> new Suffix());
                if (s.generalCount == s.generalRows.length) {
                    // Doubling: rows arrive one by one, and growing by one would copy quadratically.
                    s.generalRows = Arrays.copyOf(s.generalRows, Math.max(4, s.generalRows.length * 2));
                }
                s.generalRows[s.generalCount++] = i;
            }
        }
        root.trim();
        suffixTexts.values().forEach(Suffix::trim);
        List<String> keys = new ArrayList<>(suffixTexts.keySet());
        for (String name : exactNames.keySet()) {
            if (!suffixTexts.containsKey(name) && !isIp(name)) {
                keys.add(name);
            }
        }
        int capacity = Integer.highestOneBit(Math.max(8, keys.size() * 2 - 1)) << 1;
        mask = capacity - 1;
        shift = Integer.numberOfLeadingZeros(capacity) + 1;
        table = new long[capacity];
        texts = new String[capacity];
        exactAnswers = new int[capacity];
        suffixes = new Suffix[suffixTexts.size()];
        TreeSet<Integer> lengths = new TreeSet<>();
        int ids = 0;
        for (String text : keys) {
            int slot = slotFor(text);
            long tag = PRESENT;
            Suffix s = suffixTexts.get(text);
            if (s != null) {
                s.numeric = text.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
                suffixes[ids] = s;
                tag |= ++ids;
                lengths.add(text.length());
            }
            table[slot] = ((long) text.hashCode() << 32) | tag;
            texts[slot] = text;
            exactAnswers[slot] = ABSENT;
        }
        suffixLengths = lengths.descendingSet().stream().mapToInt(Integer::intValue).toArray();
        // Exact answers last: scan() reads the finished suffix table.
        for (Map.Entry<String, Integer> e : exactNames.entrySet()) {
            String name = e.getKey();
            if (isIp(name)) {
                ipExact.putIfAbsent(name, e.getValue());
                continue;
            }
            int wild = scan(name);
            exactAnswers[slotFor(name)] = wild >= 0 ? Math.min(e.getValue(), wild) : e.getValue();
        }
    }

    private static boolean isIp(String name) {
        return HostName.isIpv4(name, name.length()) || HostName.isIpv6(name);
    }

    /** The slot holding {@code text}, or the empty slot where it goes. */
    private int slotFor(String text) {
        int slot = spread(text.hashCode());
        while (texts[slot] != null && !texts[slot].equals(text)) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    /**
     * Fibonacci hashing: names that differ in a few characters have hash codes that differ by small
     * multiples of powers of 31, which the low bits alone would cluster into long probe runs.
     */
    private int spread(int h) {
        return (h * 0x9E3779B9) >>> shift;
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
            String[] s = p.literalSuffix();
            if (s.length > best.length) {
                best = s;
            }
        }
        return best;
    }

    /**
     * The answer for a host some exact row names (valid and normal by construction), or {@link #ABSENT}.
     */
    int exact(String host) {
        int h = host.hashCode();
        long want = (long) h << 32;
        for (int slot = spread(h);; slot = (slot + 1) & mask) {
            long entry = table[slot];
            if (entry == 0) {
                return ABSENT;
            }
            if ((entry & HASH_BITS) == want && texts[slot].equals(host)) {
                return exactAnswers[slot];
            }
        }
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
        if (n == 0) {
            return INVALID;
        }
        if (n > 253 || host.charAt(n - 1) == '.') {
            return NOT_NORMAL;
        }
        int best = NONE;
        int bestStart = n; // where the suffix that gave {@code best} starts: what is left of it is validated
        boolean bestNumeric = true;
        if (suffixLengths.length > 0) {
            int full = host.hashCode();
            int prefixHash = 0;
            int hashed = 0;
            for (int length : suffixLengths) {
                int m = n - length; // the suffix is host[m, n), after a dot at m - 1 and a label before it
                if (m < 2 || host.charAt(m - 1) != '.') {
                    continue;
                }
                for (; hashed < m; hashed++) {
                    prefixHash = 31 * prefixHash + host.charAt(hashed);
                }
                int id = find(host, m, full - prefixHash * POW31[length]);
                if (id < 0) {
                    continue;
                }
                Suffix s = suffixes[id];
                int row = general(s, host, Math.min(s.wildRow, best));
                if (row < best) {
                    best = row;
                    bestStart = m;
                    bestNumeric = s.numeric;
                }
            }
        }
        boolean rootRows = root.wildRow != NONE || root.generalRows.length > 0;
        int end = rootRows ? n : bestStart;
        int flags = flags(host, end);
        if ((flags & BAD) != 0 || (n > 63 && longLabel(host, end))) {
            return INVALID;
        }
        if ((flags & UPPER) != 0) {
            return NOT_NORMAL;
        }
        if ((flags & LETTER) == 0 && (end == n || bestNumeric) && HostName.isIpv4(host, n)) {
            return IPV4;
        }
        return rootRows ? general(root, host, Math.min(root.wildRow, best)) : best;
    }

    /**
     * The flags of {@code host[0, end)} or'ed together, with {@link #BAD} for an empty label (a leading dot
     * or two dots in a row). One table load per character and no branch, so mixed letters, digits and dots
     * cost no mispredictions.
     */
    private static int flags(String host, int end) {
        int all = 0;
        int pairs = 0;
        int previous = DOT;
        for (int i = 0; i < end; i++) {
            char c = host.charAt(i);
            // above Latin-1 the second term is UPPER: non-ASCII, for IDNA to judge
            int f = FLAGS[c & 0xFF] | (((c + 0xFF00) >>> 16) << 2);
            all |= f;
            pairs |= f & previous;
            previous = f;
        }
        return (pairs & DOT) != 0 ? all | BAD : all;
    }

    /** Whether a label of {@code host[0, end)} is longer than 63 characters. */
    private static boolean longLabel(String host, int end) {
        int start = 0;
        for (int i = 0; i <= end; i++) {
            if (i == end || host.charAt(i) == '.') {
                if (i - start > 63) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    /** The id of the suffix {@code host[from, n)}, whose hash is {@code hash}, or -1. */
    private int find(String host, int from, int hash) {
        int length = host.length() - from;
        long want = (long) hash << 32;
        for (int slot = spread(hash);; slot = (slot + 1) & mask) {
            long entry = table[slot];
            if (entry == 0) {
                return -1;
            }
            int id = (int) entry & 0x7FFF_FFFF;
            if (id != 0 && (entry & HASH_BITS) == want) {
                String text = texts[slot];
                if (text.length() == length && host.regionMatches(from, text, 0, length)) {
                    return id - 1;
                }
            }
        }
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

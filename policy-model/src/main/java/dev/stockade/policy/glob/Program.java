package dev.stockade.policy.glob;

/**
 * A compiled glob: a token string simulated as a Thompson NFA over bit sets, so matching costs
 * O(input length × pattern length / 64) whatever the pattern, with no backtracking.
 *
 * <p>Token encoding: a value {@code >= 0} is a literal char; the negative constants are wildcards.
 * State {@code i} means "the first i tokens are matched"; state {@code m} accepts.
 */
final class Program {
    /** Zero or more chars of any kind. */
    static final int ANY_STAR = -1;
    /** Zero or more chars, none of them the separator. */
    static final int SEG_STAR = -2;
    /** Exactly one char that is not the separator. */
    static final int ONE_NONSEP = -3;

    private static final ThreadLocal<long[][]> SCRATCH = new ThreadLocal<>();

    private final int[] tokens;
    private final char separator;
    private final int words;
    /** Bit i set when token i may match the empty string (a star), so state i also reaches i + 1. */
    private final long[] starMask;

    Program(int[] tokens, char separator) {
        this.tokens = tokens.clone();
        this.separator = separator;
        this.words = (tokens.length + 1 + 63) >>> 6;
        this.starMask = new long[words];
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i] == ANY_STAR || tokens[i] == SEG_STAR) {
                starMask[i >>> 6] |= 1L << (i & 63);
            }
        }
    }

    /**
     * Whether {@code s[from, to)} matches. With {@code foldAscii}, ASCII upper-case input letters are
     * compared as lower case (the pattern is already lower case).
     */
    boolean matches(CharSequence s, int from, int to, boolean foldAscii) {
        return words == 1 ? matchOneWord(s, from, to, foldAscii) : matchWords(s, from, to, foldAscii);
    }

    private boolean matchOneWord(CharSequence s, int from, int to, boolean fold) {
        final int m = tokens.length;
        final long accept = 1L << m;
        final long stars = starMask[0];
        long cur = close(1L, stars);
        for (int p = from; p < to; p++) {
            char c = fold ? lower(s.charAt(p)) : s.charAt(p);
            long next = 0;
            long bits = cur & ~accept;
            while (bits != 0) {
                int i = Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                next |= step(i, c);
            }
            if (next == 0) {
                return false;
            }
            cur = close(next, stars);
        }
        return (cur & accept) != 0;
    }

    /** The states token {@code i} leads to on char {@code c}, as a one-word mask (i + 1 < 64). */
    private long step(int i, char c) {
        int t = tokens[i];
        if (t >= 0) {
            return t == c ? 1L << (i + 1) : 0;
        }
        if (t == ANY_STAR) {
            return 1L << i;
        }
        if (c == separator) {
            return 0;
        }
        return t == SEG_STAR ? 1L << i : 1L << (i + 1);
    }

    private static long close(long x, long stars) {
        long prev;
        do {
            prev = x;
            x |= (x & stars) << 1;
        } while (x != prev);
        return x;
    }

    private boolean matchWords(CharSequence s, int from, int to, boolean fold) {
        long[][] scratch = SCRATCH.get();
        if (scratch == null || scratch[0].length < words) {
            scratch = new long[][] {new long[words], new long[words]};
            SCRATCH.set(scratch);
        }
        long[] cur = scratch[0];
        long[] next = scratch[1];
        java.util.Arrays.fill(cur, 0, words, 0L);
        cur[0] = 1L;
        closeWords(cur);
        final int m = tokens.length;
        for (int p = from; p < to; p++) {
            char c = fold ? lower(s.charAt(p)) : s.charAt(p);
            java.util.Arrays.fill(next, 0, words, 0L);
            boolean any = false;
            for (int w = 0; w < words; w++) {
                long bits = cur[w];
                while (bits != 0) {
                    int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                    if (i < m) {
                        any |= stepInto(next, i, c);
                    }
                }
            }
            if (!any) {
                return false;
            }
            long[] swap = cur;
            cur = next;
            next = swap;
            closeWords(cur);
        }
        return (cur[m >>> 6] & (1L << (m & 63))) != 0;
    }

    private boolean stepInto(long[] next, int i, char c) {
        int t = tokens[i];
        int target;
        if (t >= 0) {
            if (t != c) {
                return false;
            }
            target = i + 1;
        } else if (t == ANY_STAR) {
            target = i;
        } else if (c == separator) {
            return false;
        } else {
            target = t == SEG_STAR ? i : i + 1;
        }
        next[target >>> 6] |= 1L << (target & 63);
        return true;
    }

    private void closeWords(long[] x) {
        // Stars propagate to the next state; ascending order lets runs of stars chain in one pass.
        for (int w = 0; w < words; w++) {
            long bits = x[w] & starMask[w];
            while (bits != 0) {
                int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                int t = i + 1;
                x[t >>> 6] |= 1L << (t & 63);
                if ((t >>> 6) == w) {
                    bits |= x[w] & starMask[w] & (1L << (t & 63));
                }
            }
        }
    }

    static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }
}

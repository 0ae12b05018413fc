package dev.stockade.policy.glob;

import java.util.Arrays;

/**
 * A compiled glob: a token string simulated as a Thompson NFA with the bit-parallel shift-and method, so
 * one input character costs a constant number of word operations per 64 pattern tokens, whatever the
 * pattern: matching is O(input length × ⌈(pattern length + 1) / 64⌉) word operations, never backtracks and
 * never walks states one at a time.
 *
 * <p>Token encoding: a value {@code >= 0} is a literal char; the negative constants are wildcards. State
 * {@code i} means "the first i tokens are matched"; state {@code m} accepts. One step on char {@code c} is
 * {@code next = ((cur & advance(c)) << 1) | (cur & loop(c))}, then the star closure: a run of star states
 * {@code p..q} with its lowest active state {@code i} activates {@code i..q+1}, which one addition computes
 * for every run at once: {@code x | (((x & stars) + stars) ^ stars)} (carries run up each run of ones and
 * stop just above it).
 */
final class Program {
    /** Zero or more chars of any kind. */
    static final int ANY_STAR = -1;
    /** Zero or more chars, none of them the separator. */
    static final int SEG_STAR = -2;
    /** Exactly one char that is not the separator. */
    static final int ONE_NONSEP = -3;

    private static final ThreadLocal<long[][]> SCRATCH = new ThreadLocal<>();

    private final int m;
    private final char separator;
    private final int words;
    /** Star states (either kind): the closure's run mask. */
    private final long[] stars;
    /** Self-loops on a char that is not the separator (both star kinds). */
    private final long[] loopOther;
    /** Self-loops on the separator ({@code **}-style stars only). */
    private final long[] loopSeparator;
    /** Tokens that advance on any char but the separator ({@code ?}-style). */
    private final long[] oneOther;
    /** Distinct literal chars, sorted, and for each the tokens that are that char. */
    private final char[] literalChars;
    private final long[][] literalMasks;
    /** For ASCII chars: index into {@link #literalMasks} plus one, 0 when the char is no literal. */
    private final byte[] asciiIndex = new byte[128];
    private final boolean asciiFits;
    private final long[] none;

    Program(int[] tokens, char separator) {
        this.m = tokens.length;
        this.separator = separator;
        this.words = (m + 1 + 63) >>> 6;
        this.stars = new long[words];
        this.loopOther = new long[words];
        this.loopSeparator = new long[words];
        this.oneOther = new long[words];
        this.none = new long[words];
        char[] distinct = Arrays.stream(tokens).filter(t -> t >= 0).distinct().sorted()
                .collect(StringBuilder::new, (b, t) -> b.append((char) t), StringBuilder::append).toString()
                .toCharArray();
        this.literalChars = distinct;
        this.literalMasks = new long[distinct.length][words];
        for (int i = 0; i < m; i++) {
            int t = tokens[i];
            long bit = 1L << (i & 63);
            int w = i >>> 6;
            if (t >= 0) {
                literalMasks[Arrays.binarySearch(distinct, (char) t)][w] |= bit;
            } else if (t == ONE_NONSEP) {
                oneOther[w] |= bit;
            } else {
                stars[w] |= bit;
                loopOther[w] |= bit;
                if (t == ANY_STAR) {
                    loopSeparator[w] |= bit;
                }
            }
        }
        boolean fits = distinct.length < 127;
        for (int k = 0; fits && k < distinct.length; k++) {
            if (distinct[k] < 128) {
                asciiIndex[distinct[k]] = (byte) (k + 1);
            }
        }
        this.asciiFits = fits;
    }

    /** The tokens that are the literal {@code c}, or an all-zero mask. */
    private long[] literal(char c) {
        if (c < 128 && asciiFits) {
            int k = asciiIndex[c];
            return k == 0 ? none : literalMasks[k - 1];
        }
        int k = Arrays.binarySearch(literalChars, c);
        return k < 0 ? none : literalMasks[k];
    }

    /** The cost of one match of an input of {@code length} chars, in word operations (the work bound's unit). */
    long cost(int length) {
        return (long) length * words;
    }

    /**
     * Whether {@code s[from, to)} matches. With {@code foldAscii}, ASCII upper-case input letters are
     * compared as lower case (the pattern is already lower case).
     */
    boolean matches(CharSequence s, int from, int to, boolean foldAscii) {
        return words == 1 ? matchOneWord(s, from, to, foldAscii) : matchWords(s, from, to, foldAscii);
    }

    private boolean matchOneWord(CharSequence s, int from, int to, boolean fold) {
        final long starMask = stars[0];
        final long one = oneOther[0];
        final long loopO = loopOther[0];
        final long loopS = loopSeparator[0];
        long cur = close(1L, starMask);
        for (int p = from; p < to; p++) {
            char c = fold ? lower(s.charAt(p)) : s.charAt(p);
            long next;
            if (c == separator) {
                next = ((cur & literal(c)[0]) << 1) | (cur & loopS);
            } else {
                next = ((cur & (literal(c)[0] | one)) << 1) | (cur & loopO);
            }
            if (next == 0) {
                return false;
            }
            cur = close(next, starMask);
        }
        return (cur & (1L << m)) != 0;
    }

    private static long close(long x, long stars) {
        return x | (((x & stars) + stars) ^ stars);
    }

    private boolean matchWords(CharSequence s, int from, int to, boolean fold) {
        long[][] scratch = SCRATCH.get();
        if (scratch == null || scratch[0].length < words) {
            scratch = new long[][] {new long[words], new long[words]};
            SCRATCH.set(scratch);
        }
        long[] cur = scratch[0];
        long[] next = scratch[1];
        Arrays.fill(cur, 0, words, 0L);
        cur[0] = 1L;
        closeWords(cur);
        for (int p = from; p < to; p++) {
            char c = fold ? lower(s.charAt(p)) : s.charAt(p);
            boolean sep = c == separator;
            long[] lit = literal(c);
            long[] loop = sep ? loopSeparator : loopOther;
            long carry = 0;
            long any = 0;
            for (int w = 0; w < words; w++) {
                long advance = cur[w] & (sep ? lit[w] : lit[w] | oneOther[w]);
                long v = (advance << 1) | carry | (cur[w] & loop[w]);
                carry = advance >>> 63;
                next[w] = v;
                any |= v;
            }
            if (any == 0) {
                return false;
            }
            long[] swap = cur;
            cur = next;
            next = swap;
            closeWords(cur);
        }
        return (cur[m >>> 6] & (1L << (m & 63))) != 0;
    }

    /** The star closure over several words: one multi-word addition, carries passed from word to word. */
    private void closeWords(long[] x) {
        long carry = 0;
        for (int w = 0; w < words; w++) {
            long a = x[w] & stars[w];
            long sum = a + stars[w];
            long carryOut = Long.compareUnsigned(sum, a) < 0 ? 1 : 0;
            long total = sum + carry;
            carryOut |= Long.compareUnsigned(total, sum) < 0 ? 1 : 0;
            x[w] |= total ^ stars[w];
            carry = carryOut;
        }
    }

    static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }
}

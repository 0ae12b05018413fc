package dev.stockade.policy.glob;

import static dev.stockade.policy.model.PolicyGens.chars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The compiled matcher agrees with the naive reference matcher on small random patterns and inputs
 * (QuickTheories, fixed seed).
 */
class GlobPropertiesTest {
    private static final long SEED = 0x5EED_0002L;

    private static QuickTheory qt(int examples) {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(examples);
    }

    @Test
    void nameMatcherAgreesWithReference() {
        qt(2000).forAll(chars("ab*", 1, 8), chars("abc", 0, 10))
                .checkAssert((p, in) -> assertAgrees(GlobKind.NAME, p, in));
    }

    @Test
    void valueMatcherAgreesWithReference() {
        Gen<String> pattern = lists().of(arbitrary().pick("a", "b", "*", "\\*", "\\\\", "/")).ofSizeBetween(0, 7)
                .map(l -> String.join("", l));
        qt(2000).forAll(pattern, chars("ab*\\/", 0, 10)).checkAssert((p, in) -> assertAgrees(GlobKind.VALUE, p, in));
    }

    @Test
    void pathMatcherAgreesWithReference() {
        Gen<String> pattern = lists().of(arbitrary().pick("a", "b", "/", "*", "**")).ofSizeBetween(0, 7)
                .map(l -> "/" + String.join("", l)).assuming(p -> !p.contains("***"));
        qt(2000).forAll(pattern, pathInput()).checkAssert((p, in) -> assertAgrees(GlobKind.PATH, p, in));
    }

    @Test
    void domainMatcherAgreesWithReference() {
        Gen<String> label = arbitrary().pick("a", "b", "ab", "a*", "*b", "A", "a*b");
        Gen<String> pattern = arbitrary().pick("", "*.").zip(lists().of(label).ofSizeBetween(1, 3),
                (head, rest) -> head + String.join(".", rest));
        Gen<String> hostLabel = arbitrary().pick("a", "b", "ab", "ba", "aab", "B", "");
        Gen<String> host = lists().of(hostLabel).ofSizeBetween(1, 5).zip(arbitrary().pick("", "."),
                (labels, dot) -> String.join(".", labels) + dot);
        assertAgrees(GlobKind.DOMAIN, "*", "a");
        qt(2000).forAll(pattern, host).checkAssert((p, in) -> assertAgrees(GlobKind.DOMAIN, p, in));
    }

    /**
     * Patterns of 64 to 200 tokens run on several words of state (carries across words in the shift and in
     * the star closure); at most three stars keep the exponential reference affordable. Inputs are the
     * pattern with its stars filled in, then, half of the time, one char changed.
     */
    @Test
    void multiWordMatchersAgreeWithReference() {
        Gen<String> literal = chars("ab/", 64, 200);
        Gen<List<Integer>> starAt = lists().of(org.quicktheories.generators.SourceDSL.integers().between(0, 1_000))
                .ofSizeBetween(0, 3);
        Gen<String> pattern = literal.zip(starAt, (text, positions) -> {
            StringBuilder b = new StringBuilder(text);
            for (int at : positions) {
                b.insert(at % (b.length() + 1), at % 2 == 0 ? "*" : "**");
            }
            String p = "/" + b;
            while (p.contains("***")) {
                p = p.replace("***", "**a");
            }
            return p;
        });
        int[] matched = new int[1];
        qt(400).forAll(pattern, org.quicktheories.generators.SourceDSL.longs().all()).checkAssert((p, seed) -> {
            java.util.Random random = new java.util.Random(seed);
            String filled = p.replace("**", "\u0001").replace("*", "\u0002");
            StringBuilder input = new StringBuilder();
            for (char c : filled.toCharArray()) {
                if (c == '\u0001') {
                    input.append(List.of("", "a/b", "ab", "/").get(random.nextInt(4)));
                } else if (c == '\u0002') {
                    input.append(List.of("", "a", "ba").get(random.nextInt(3)));
                } else {
                    input.append(c);
                }
            }
            if (random.nextBoolean() && input.length() > 1) {
                input.setCharAt(1 + random.nextInt(input.length() - 1), "ab/".charAt(random.nextInt(3)));
            }
            assertAgrees(GlobKind.PATH, p, input.toString());
            assertAgrees(GlobKind.VALUE, p.replace("/", "a"), input.toString().replace("/", "a"));
            matched[0] += Glob.compile(GlobKind.PATH, p).glob().matches(input) ? 1 : 0;
        });
        // Control: both answers are common, so agreement means something.
        assertThat(matched[0]).isBetween(100, 300);
    }

    @Test
    void aPatternWithoutWildcardsMatchesItself() {
        qt(500).forAll(pathInput()).checkAssert(path -> {
            GlobResult r = Glob.compile(GlobKind.PATH, path);
            assertThat(r.ok()).isTrue();
            assertThat(r.glob().matches(path)).isTrue();
            assertThat(r.glob().isLiteral()).isTrue();
        });
    }

    @Test
    void compileNeverThrows() {
        Gen<String> text = Generate.oneOf(strings().allPossible().ofLengthBetween(0, 40),
                chars("ab*\\/.{}[]?!-", 0, 40), strings().basicMultilingualPlaneAlphabet().ofLengthBetween(0, 40));
        qt(1000).forAll(text).checkAssert(t -> {
            for (GlobKind kind : GlobKind.values()) {
                GlobResult r = Glob.compile(kind, t);
                assertThat(r.ok()).isEqualTo(r.glob() != null);
                r.errors().forEach(e -> assertThat(e.offset()).isBetween(0, t.length()));
            }
        });
    }

    private static Gen<String> pathInput() {
        return chars("ab/", 0, 10).map(s -> "/" + s);
    }

    private static void assertAgrees(GlobKind kind, String pattern, String input) {
        GlobResult r = Glob.compile(kind, pattern);
        assertThat(r.errors()).as("pattern %s", pattern).isEmpty();
        assertThat(r.glob().matches(input))
                .as("%s %s on %s", kind, pattern, input)
                .isEqualTo(ReferenceGlob.matches(kind, pattern, input));
    }
}

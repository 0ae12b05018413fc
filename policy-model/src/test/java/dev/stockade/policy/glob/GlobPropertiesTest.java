package dev.stockade.policy.glob;

import static dev.stockade.policy.model.PolicyGens.chars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

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

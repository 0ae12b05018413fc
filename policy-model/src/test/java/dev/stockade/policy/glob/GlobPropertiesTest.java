package dev.stockade.policy.glob;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/** The compiled matcher agrees with the naive reference matcher on small random patterns and inputs. */
class GlobPropertiesTest {

    @Property(tries = 2000)
    void nameMatcherAgreesWithReference(@ForAll("nameCase") Tuple.Tuple2<String, String> c) {
        assertAgrees(GlobKind.NAME, c.get1(), c.get2());
    }

    @Property(tries = 2000)
    void valueMatcherAgreesWithReference(@ForAll("valueCase") Tuple.Tuple2<String, String> c) {
        assertAgrees(GlobKind.VALUE, c.get1(), c.get2());
    }

    @Property(tries = 2000)
    void pathMatcherAgreesWithReference(@ForAll("pathCase") Tuple.Tuple2<String, String> c) {
        assertAgrees(GlobKind.PATH, c.get1(), c.get2());
    }

    @Property(tries = 2000)
    void domainMatcherAgreesWithReference(@ForAll("domainCase") Tuple.Tuple2<String, String> c) {
        assertAgrees(GlobKind.DOMAIN, c.get1(), c.get2());
    }

    @Property(tries = 500)
    void aPatternWithoutWildcardsMatchesItself(@ForAll("pathInput") String path) {
        GlobResult r = Glob.compile(GlobKind.PATH, path);
        assertThat(r.ok()).isTrue();
        assertThat(r.glob().matches(path)).isTrue();
        assertThat(r.glob().isLiteral()).isTrue();
    }

    @Property(tries = 1000)
    void compileNeverThrows(@ForAll String text) {
        for (GlobKind kind : GlobKind.values()) {
            GlobResult r = Glob.compile(kind, text);
            assertThat(r.ok()).isEqualTo(r.glob() != null);
            r.errors().forEach(e -> assertThat(e.offset()).isBetween(0, text.length()));
        }
    }

    private static void assertAgrees(GlobKind kind, String pattern, String input) {
        GlobResult r = Glob.compile(kind, pattern);
        assertThat(r.errors()).as("pattern %s", pattern).isEmpty();
        assertThat(r.glob().matches(input))
                .as("%s %s on %s", kind, pattern, input)
                .isEqualTo(ReferenceGlob.matches(kind, pattern, input));
    }

    private static Arbitrary<String> from(String alphabet, int max) {
        return Arbitraries.strings().withChars(alphabet.toCharArray()).ofMaxLength(max);
    }

    @Provide
    Arbitrary<Tuple.Tuple2<String, String>> nameCase() {
        return Combinators.combine(from("ab*", 8).filter(s -> !s.isEmpty()), from("abc", 10)).as(Tuple::of);
    }

    @Provide
    Arbitrary<Tuple.Tuple2<String, String>> valueCase() {
        Arbitrary<String> piece = Arbitraries.of("a", "b", "*", "\\*", "\\\\", "/");
        Arbitrary<String> pattern = piece.list().ofMaxSize(7).map(l -> String.join("", l));
        return Combinators.combine(pattern, from("ab*\\/", 10)).as(Tuple::of);
    }

    @Provide
    Arbitrary<String> pathInput() {
        return from("ab/", 10).map(s -> "/" + s);
    }

    @Provide
    Arbitrary<Tuple.Tuple2<String, String>> pathCase() {
        Arbitrary<String> piece = Arbitraries.of("a", "b", "/", "*", "**");
        Arbitrary<String> pattern = piece.list().ofMaxSize(7).map(l -> "/" + String.join("", l))
                .filter(p -> !p.contains("***"));
        return Combinators.combine(pattern, pathInput()).as(Tuple::of);
    }

    @Provide
    @SuppressWarnings("unchecked")
    Arbitrary<Tuple.Tuple2<String, String>> domainCase() {
        Arbitrary<String> label = Arbitraries.of("a", "b", "ab", "a*", "*b", "A", "a*b");
        Arbitrary<String> pattern = Combinators.combine(
                        Arbitraries.of("", "*."), label.list().ofMinSize(1).ofMaxSize(3))
                .as((head, rest) -> head + String.join(".", rest));
        Arbitrary<String> hostLabel = Arbitraries.of("a", "b", "ab", "ba", "aab", "B", "");
        Arbitrary<String> host = Combinators.combine(hostLabel.list().ofMinSize(1).ofMaxSize(5),
                        Arbitraries.of("", "."))
                .as((labels, dot) -> String.join(".", labels) + dot);
        return Combinators.combine(pattern.injectDuplicates(0.1), host).as(Tuple::of)
                .edgeCases(e -> e.add(Tuple.of("*", "a")));
    }
}

package dev.stockade.policy.glob;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

    static Glob glob(GlobKind kind, String text) {
        GlobResult r = Glob.compile(kind, text);
        assertThat(r.errors()).as("errors of %s", text).isEmpty();
        return r.glob();
    }

    static GlobError onlyError(GlobKind kind, String text) {
        GlobResult r = Glob.compile(kind, text);
        assertThat(r.ok()).isFalse();
        assertThat(r.glob()).isNull();
        return r.errors().get(0);
    }

    @ParameterizedTest
    @CsvSource({
        "*.example.com, a.example.com, true",
        "*.example.com, a.b.example.com, true",
        "*.example.com, example.com, false",
        "*.example.com, aexample.com, false",
        "*.example.com, A.EXAMPLE.COM., true",
        "*.example.com, .example.com, false",
        "*.example.com, a..example.com, false",
        "example.com, EXAMPLE.com, true",
        "example.com, example.com., true",
        "example.com, www.example.com, false",
        "api-*.example.com, api-v1.example.com, true",
        "api-*.example.com, api-.example.com, true",
        "api-*.example.com, api-v1.x.example.com, false",
        "api-*.example.com, x.api-v1.example.com, false",
        "*api.example.com, api.example.com, true",
        "ex*le.c*, example.com, true",
        "ex*le.c*, example.org, false",
        "*, example.com, true",
        "*, localhost, true",
        "Bücher.example, xn--bcher-kva.example, true",
        "xn--bcher-kva.example, BÜCHER.example, true",
        "*.example.com, bücher.example.com, true",
    })
    void domains(String pattern, String host, boolean expected) {
        assertThat(glob(GlobKind.DOMAIN, pattern).matches(host)).isEqualTo(expected);
    }

    @Test
    void domainLabelsAreNormalised() {
        assertThat(glob(GlobKind.DOMAIN, "*.Example.COM.").labels()).containsExactly("*", "example", "com");
        assertThat(glob(GlobKind.DOMAIN, "API-*.example.com").labels()).containsExactly("api-*", "example", "com");
        assertThat(glob(GlobKind.DOMAIN, "Bücher.example").labels()).containsExactly("xn--bcher-kva", "example");
        assertThat(glob(GlobKind.DOMAIN, "*").labels()).containsExactly("*");
        assertThat(glob(GlobKind.DOMAIN, "Example.com").isLiteral()).isTrue();
        assertThat(glob(GlobKind.DOMAIN, "*.example.com").isLiteral()).isFalse();
        assertThat(glob(GlobKind.PATH, "/a/b").labels()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "a.*.com|2",
        "example.*|8",
        "a..com|2",
        ".example.com|0",
        "example.com:443|11",
        "exa mple.com|3",
        "**.example.com|0",
        "a/b.com|1",
        "''|0",
        "ex_ample.com/|12",
    })
    void domainErrors(String pattern, int offset) {
        assertThat(onlyError(GlobKind.DOMAIN, pattern).offset()).isEqualTo(offset);
    }

    @Test
    void domainLabelTooLongAndWildcardNonAscii() {
        assertThat(onlyError(GlobKind.DOMAIN, "a".repeat(64) + ".com").message()).contains("longer than 63");
        assertThat(onlyError(GlobKind.DOMAIN, "x.bü*.com").offset()).isEqualTo(3);
    }

    @ParameterizedTest
    @CsvSource({
        "/repos/*/pulls, /repos/acme/pulls, true",
        "/repos/*/pulls, /repos/acme/x/pulls, false",
        "/repos/*/pulls, /repos//pulls, true",
        "/repos/**, /repos/a/b/c, true",
        "/repos/**, /repos/, true",
        "/repos/**, /repos, false",
        "/repos/**/pulls, /repos/a/b/pulls, true",
        "/repos/**/pulls, /repos/a/b/pull, false",
        "/v1/*.json, /v1/a.json, true",
        "/v1/*.json, /v1/a/b.json, false",
        "/Api, /api, false",
        "/, /, true",
        "/**, /anything/at/all, true",
    })
    void paths(String pattern, String path, boolean expected) {
        assertThat(glob(GlobKind.PATH, pattern).matches(path)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "api/x|0",
        "''|0",
        "/a/***|3",
        "/a?b=1|2",
        "/a b|2",
        "/a\\*|2",
        "/caf\u00e9|4",
    })
    void pathErrors(String pattern, int offset) {
        assertThat(onlyError(GlobKind.PATH, pattern).offset()).isEqualTo(offset);
    }

    @ParameterizedTest
    @CsvSource({
        "get*, getUser, true",
        "get*, get, true",
        "get*, GetUser, false",
        "*User, viewerUser, true",
        "*, anything, true",
        "viewer, viewer, true",
        "viewer, viewers, false",
        "a*b*c, aXbYc, true",
        "a*b*c, aXbY, false",
    })
    void names(String pattern, String name, boolean expected) {
        assertThat(glob(GlobKind.NAME, pattern).matches(name)).isEqualTo(expected);
    }

    @Test
    void nameErrors() {
        assertThat(onlyError(GlobKind.NAME, "").offset()).isEqualTo(0);
        assertThat(onlyError(GlobKind.NAME, "user.name").offset()).isEqualTo(4);
        assertThat(onlyError(GlobKind.NAME, "get-*").offset()).isEqualTo(3);
    }

    @Test
    void values() {
        assertThat(glob(GlobKind.VALUE, "acme/*").matches("acme/app/x")).isTrue();
        assertThat(glob(GlobKind.VALUE, "Acme").matches("acme")).isFalse();
        assertThat(glob(GlobKind.VALUE, "").matches("")).isTrue();
        assertThat(glob(GlobKind.VALUE, "").matches("x")).isFalse();
        Glob star = glob(GlobKind.VALUE, "a\\*b");
        assertThat(star.isLiteral()).isTrue();
        assertThat(star.matches("a*b")).isTrue();
        assertThat(star.matches("axb")).isFalse();
        Glob backslash = glob(GlobKind.VALUE, "a\\\\*");
        assertThat(backslash.matches("a\\")).isTrue();
        assertThat(backslash.matches("a\\zz")).isTrue();
        assertThat(backslash.matches("az")).isFalse();
        assertThat(glob(GlobKind.VALUE, "42").matches("42")).isTrue();
        assertThat(glob(GlobKind.VALUE, "\uD83D\uDE00*").matches("\uD83D\uDE00!")).isTrue();
    }

    @Test
    void valueErrors() {
        assertThat(onlyError(GlobKind.VALUE, "ab\\").offset()).isEqualTo(2);
        assertThat(onlyError(GlobKind.VALUE, "a\\nb").offset()).isEqualTo(1);
        // offsets count chars, not code points
        assertThat(onlyError(GlobKind.VALUE, "\uD83D\uDE00\\x").offset()).isEqualTo(2);
    }

    @Test
    void nullAndErrorsNeverThrow() {
        for (GlobKind kind : GlobKind.values()) {
            assertThat(Glob.compile(kind, null).ok()).isFalse();
            assertThat(Glob.compile(kind, "x".repeat(5000)).ok()).isFalse();
        }
        assertThat(Glob.compile(null, "a").ok()).isFalse();
    }

    @Test
    void manyErrorsAreAllReportedSortedByOffset() {
        List<GlobError> errors = Glob.compile(GlobKind.NAME, "a.b-c").errors();
        assertThat(errors).extracting(GlobError::offset).containsExactly(1, 3);
    }

    @Test
    void pathologicalPatternIsDecidedWithoutBacktracking() {
        // a*a*...*b over a long run of a: exponential for a backtracking matcher, linear here.
        String pattern = "a*".repeat(40) + "b";
        String input = "a".repeat(200_000);
        for (GlobKind kind : List.of(GlobKind.NAME, GlobKind.VALUE)) {
            Glob g = glob(kind, pattern);
            assertThat(g.matches(input)).isFalse();
            assertThat(g.matches(input + "b")).isTrue();
        }
        Glob path = glob(GlobKind.PATH, "/" + "a*".repeat(40) + "b");
        assertThat(path.matches("/" + input)).isFalse();
        assertThat(path.matches("/" + input + "b")).isTrue();
        Glob longPattern = glob(GlobKind.VALUE, "a*".repeat(100) + "b");
        assertThat(longPattern.matches(input)).isFalse();
        assertThat(longPattern.matches(input + "b")).isTrue();
        Glob domain = glob(GlobKind.DOMAIN, "a*a*a*a*a*a*a*a*a*b.com");
        assertThat(domain.matches("a".repeat(60) + ".com")).isFalse();
        assertThat(domain.matches("a".repeat(60) + "b.com")).isTrue();
    }

    @Test
    void longPatternsUseMultiWordStateSets() {
        String lit = "x".repeat(70);
        Glob g = glob(GlobKind.VALUE, lit + "*" + lit);
        assertThat(g.matches(lit + lit)).isTrue();
        assertThat(g.matches(lit + "yy" + lit)).isTrue();
        assertThat(g.matches(lit + "yy" + lit.substring(1))).isFalse();
        Glob p = glob(GlobKind.PATH, "/" + lit + "/*/" + lit + "/**");
        assertThat(p.matches("/" + lit + "/seg/" + lit + "/a/b")).isTrue();
        assertThat(p.matches("/" + lit + "/s/eg/" + lit + "/a/b")).isFalse();
    }
}

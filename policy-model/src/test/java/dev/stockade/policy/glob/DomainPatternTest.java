package dev.stockade.policy.glob;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Pattern shapes, matching, and the intersection the compiler's row product relies on. */
class DomainPatternTest {

    private static DomainPattern p(String text) {
        return DomainPattern.parse(text);
    }

    private static List<String> meet(String a, String b) {
        List<DomainPattern> m = DomainPattern.intersect(List.of(p(a)), p(b));
        return m == null ? null : m.stream().map(DomainPattern::text).toList();
    }

    @Test
    void shapes() {
        assertThat(p("api.example.com").kind()).isEqualTo(DomainPattern.Kind.EXACT);
        assertThat(p("API.Example.com").literal()).isEqualTo("api.example.com");
        assertThat(p("*.example.com").kind()).isEqualTo(DomainPattern.Kind.SUFFIX);
        assertThat(p("*").kind()).isEqualTo(DomainPattern.Kind.SUFFIX);
        assertThat(p("api-*.example.com").kind()).isEqualTo(DomainPattern.Kind.GENERAL);
        assertThat(p("a..com").kind()).isEqualTo(DomainPattern.Kind.INVALID);
        assertThat(p("example.*").kind()).isEqualTo(DomainPattern.Kind.INVALID);
        assertThat(p(null).kind()).isEqualTo(DomainPattern.Kind.INVALID);
    }

    @Test
    void wildcardsCoverOneOrMoreLabelsNeverTheApexNorAnIpLiteral() {
        assertThat(p("*.example.com").matches("a.b.example.com")).isTrue();
        assertThat(p("*.example.com").matches("example.com")).isFalse();
        assertThat(p("*.example.com").matches("badexample.com")).isFalse();
        assertThat(p("*").matches("10.0.0.1")).isFalse();
        assertThat(p("10.0.0.1").matches("10.0.0.1")).isTrue();
        assertThat(p("api-*.example.com").matches("api-v1.example.com")).isTrue();
        assertThat(p("api-*.example.com").matches("x.api-v1.example.com")).isFalse();
    }

    @Test
    void intersectionKeepsTheNarrowerPatternOrBothOrNothing() {
        assertThat(meet("*.example.com", "api.example.com")).containsExactly("api.example.com");
        assertThat(meet("api.example.com", "*.example.com")).containsExactly("api.example.com");
        assertThat(meet("*.example.com", "*.b.example.com")).containsExactly("*.b.example.com");
        assertThat(meet("*.a.com", "*.b.com")).isNull();
        assertThat(meet("a.com", "b.com")).isNull();
        assertThat(meet("*", "x.org")).containsExactly("x.org");
        assertThat(meet("api-*.example.com", "*-v2.example.com")).containsExactly("api-*.example.com",
                "*-v2.example.com");
        assertThat(meet("api-*.example.com", "*.example.org")).isNull();
    }

    @Test
    void coverage() {
        assertThat(DomainPattern.covers(p("*.example.com"), List.of(p("*.a.example.com")))).isTrue();
        assertThat(DomainPattern.covers(p("*.a.example.com"), List.of(p("*.example.com")))).isFalse();
        assertThat(DomainPattern.covers(p("*"), List.of(p("api-*.x.com")))).isTrue();
        assertThat(DomainPattern.covers(p("api-*.x.com"), List.of(p("api-1.x.com")))).isTrue();
        assertThat(DomainPattern.covers(p("x.com"), List.of(p("*.x.com")))).isFalse();
    }
}

package dev.stockade.policy.glob;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code :PORT} of a domain pattern, IPv6 literals in patterns, and how ports meet in the row product. */
class HostPortTest {

    private static DomainPattern p(String text) {
        return DomainPattern.parse(text);
    }

    private static List<String> meet(String a, String b) {
        List<DomainPattern> m = DomainPattern.intersect(List.of(p(a)), p(b));
        return m == null ? null : m.stream().map(DomainPattern::text).toList();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "api.example.com:8443|api.example.com|8443",
        "*.example.com:8080|*.example.com|8080",
        "[2001:db8::1]:8443|[2001:db8::1]|8443",
        "[2001:db8::1]|[2001:db8::1]|-1",
        "2001:db8::1|2001:db8::1|-1",
        "x.com:1|x.com|1",
        "x.com:65535|x.com|65535",
        "example.com|example.com|-1"})
    void splitsTheHostFromThePort(String text, String host, int port) {
        HostPort split = HostPort.split(text);
        assertThat(split.error()).isNull();
        assertThat(split.host()).isEqualTo(host);
        assertThat(split.port()).isEqualTo(port);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "x.com:0|6|port `0` is outside 1 to 65535",
        "x.com:65536|6|port `65536` is outside 1 to 65535",
        "x.com:99999999999|6|port `99999999999` is outside 1 to 65535",
        "x.com:08443|6|port `08443` has a leading zero",
        "x.com:+443|6|port `+443` is not a decimal number",
        "x.com:-1|6|port `-1` is not a decimal number",
        "x.com:https|6|port `https` is not a decimal number",
        "x.com:|6|the port after `:` is empty",
        "[::1]x|5|only `:PORT` can follow the `]` of an IPv6 literal",
        "[::1]:0443|6|port `0443` has a leading zero"})
    void refusesBadPortsWhereTheyStart(String text, int offset, String error) {
        HostPort split = HostPort.split(text);
        assertThat(split.error()).isEqualTo(error);
        assertThat(split.portOffset()).isEqualTo(offset);
        assertThat(p(text).kind()).isEqualTo(DomainPattern.Kind.INVALID);
    }

    @Test
    void aPatternWithAPortMatchesItsHostsOnThatPortOnly() {
        DomainPattern api = p("API.example.com:8443");
        assertThat(api.kind()).isEqualTo(DomainPattern.Kind.EXACT);
        assertThat(api.literal()).isEqualTo("api.example.com");
        assertThat(api.matches("api.example.com", 8443)).isTrue();
        assertThat(api.matches("api.example.com", 443)).isFalse();
        assertThat(p("*.example.com:8080").matches("a.example.com", 8080)).isTrue();
        assertThat(p("*.example.com:8080").matches("a.example.com", 80)).isFalse();
        assertThat(p("*.example.com").matches("a.example.com", 22)).isTrue();
    }

    @Test
    void ipv6LiteralsAreExactPatternsForTheirNormalForm() {
        assertThat(p("[2001:DB8:0:0::1]:8443").literal()).isEqualTo("2001:db8::1");
        assertThat(p("[2001:db8::1]:8443").port()).isEqualTo(8443);
        assertThat(p("2001:db8::1").literal()).isEqualTo("2001:db8::1");
        assertThat(p("2001:db8::1").port()).isEqualTo(HostPort.ANY);
        assertThat(p("[::ffff:10.0.0.5]").literal()).isEqualTo("10.0.0.5"); // the IPv4 address it carries
        assertThat(p("[2001:db8::g]").kind()).isEqualTo(DomainPattern.Kind.INVALID);
        assertThat(p("[2001:db8::1").kind()).isEqualTo(DomainPattern.Kind.INVALID);
        assertThat(p("[fe80::1%eth0]").kind()).isEqualTo(DomainPattern.Kind.INVALID); // zones are refused
        assertThat(p("*").matches("2001:db8::1")).isFalse();
    }

    @Test
    void portsMeetInTheRowProduct() {
        assertThat(meet("*.example.com", "api.example.com:8443")).containsExactly("api.example.com:8443");
        assertThat(meet("*.example.com:8443", "api.example.com")).containsExactly("api.example.com:8443");
        assertThat(meet("api.example.com:8443", "*.example.com")).containsExactly("api.example.com:8443");
        assertThat(meet("*.example.com:443", "*.a.example.com")).containsExactly("*.a.example.com:443");
        assertThat(meet("*.example.com:8443", "api.example.com:443")).isNull();
        assertThat(meet("[2001:db8::1]", "2001:db8::1:8443")).isNull(); // a bare literal is the address, no port
        assertThat(meet("2001:db8::1", "[2001:db8::1]:8443")).containsExactly("[2001:db8::1]:8443");
    }

    @Test
    void aPatternOnOnePortCoversOnlyThatPort() {
        assertThat(DomainPattern.covers(p("*.example.com"), List.of(p("api.example.com:8443")))).isTrue();
        assertThat(DomainPattern.covers(p("*.example.com:8443"), List.of(p("api.example.com:8443")))).isTrue();
        assertThat(DomainPattern.covers(p("*.example.com:8443"), List.of(p("api.example.com")))).isFalse();
        assertThat(DomainPattern.covers(p("*.example.com:8443"), List.of(p("api.example.com:443")))).isFalse();
        assertThat(DomainPattern.covers(p("api-*.x.com:80"), List.of(p("api-*.x.com:80")))).isTrue();
    }
}

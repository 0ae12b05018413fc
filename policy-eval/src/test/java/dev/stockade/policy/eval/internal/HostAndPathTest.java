package dev.stockade.policy.eval.internal;

import dev.stockade.policy.glob.DomainPattern;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Host validation and normalisation and the domain index's scan (paths: RequestPathTest). */
class HostAndPathTest {

    @Test
    void fastChecksSendEveryAddressFormButTheCanonicalQuadToTheGrammar() {
        assertThat(HostName.endsInNumber("2130706433")).isTrue();
        assertThat(HostName.endsInNumber("127.1")).isTrue();
        assertThat(HostName.endsInNumber("a.0x7f")).isTrue();
        assertThat(HostName.endsInNumber("10.0.0.1.")).isTrue();
        assertThat(HostName.endsInNumber("api.example.com")).isFalse();
        assertThat(HostName.endsInNumber("a.b1")).isFalse();
        assertThat(HostName.isCanonicalIpv4("10.0.0.1")).isTrue();
        assertThat(HostName.isCanonicalIpv4("010.0.0.1")).isFalse();
        assertThat(HostName.isCanonicalIpv4("256.0.0.1")).isFalse();
    }

    @Test
    void scanValidatesAndFindsTheFirstWildcardRow() {
        DomainIndex index = new DomainIndex(List.of(List.of(DomainPattern.parse("*.b.example.com")),
                List.of(DomainPattern.parse("*.example.com")), List.of(DomainPattern.parse("x-*.example.com"))));
        assertThat(index.scan("a.b.example.com")).isZero();
        assertThat(index.scan("a.example.com")).isEqualTo(1);
        assertThat(index.scan("x-1.example.com")).isEqualTo(1);
        assertThat(index.scan("example.com")).isEqualTo(DomainIndex.NONE);
        assertThat(index.scan("A.example.com")).isEqualTo(DomainIndex.NOT_NORMAL);
        assertThat(index.scan("a.example.com.")).isEqualTo(DomainIndex.NOT_NORMAL);
        assertThat(index.scan("a..example.com")).isEqualTo(DomainIndex.INVALID);
        assertThat(index.scan(".example.com")).isEqualTo(DomainIndex.INVALID);
        assertThat(index.scan("a/b.example.com")).isEqualTo(DomainIndex.INVALID);
        assertThat(index.scan("x".repeat(64) + ".example.com")).isEqualTo(DomainIndex.INVALID);
        assertThat(index.scan("10.0.0.1")).isEqualTo(DomainIndex.IPV4);
    }
}

package dev.stockade.policy.eval.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Host validation and normalisation and the domain index's scan (paths: RequestPathTest). */
class HostAndPathTest {

    @Test
    void normalisation() {
        assertThat(HostName.normalise("API.Example.COM.")).isEqualTo("api.example.com");
        assertThat(HostName.normalise("bücher.example")).isEqualTo("xn--bcher-kva.example");
        assertThat(HostName.normalise("a b.com")).isNull();
        assertThat(HostName.ipv6Key("[::1]")).isEqualTo("::1");
        assertThat(HostName.ipv6Key("a:b")).isNull();
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

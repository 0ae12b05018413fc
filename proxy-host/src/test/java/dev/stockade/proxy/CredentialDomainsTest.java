package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Credential domains read with the policies' own host:port grammar (docs/semantics.md, "Ports"). */
class CredentialDomainsTest {
    private static Credential credential(String... domains) {
        return new Credential(UUID.randomUUID(), "api-key", "s3cret-value", List.of(domains), "Authorization: Bearer {secret}");
    }

    @Test
    void aDomainGoesToItsNamedPortOr443() {
        Credential c = credential("api.example.com:8443", "*.example.org", "[2001:db8::1]:9443");
        assertThat(c.covers("api.example.com", 8443)).isTrue();
        assertThat(c.covers("api.example.com", 443)).isFalse();
        assertThat(c.covers("x.example.org", 443)).isTrue();
        assertThat(c.covers("x.example.org", 8443)).isFalse();
        assertThat(c.covers("2001:db8::1", 9443)).isTrue();
        assertThat(c.covers("2001:db8::1", 443)).isFalse();
    }

    @Test
    void portsThePoliciesRefuseAreRefusedHereWithoutTheSecret() {
        for (String bad : List.of("api.example.com:0443", "api.example.com:", "api.example.com:70000",
                "api.example.com:+443", "[2001:db8::1]443")) {
            assertThatThrownBy(() -> credential(bad).covers("api.example.com", 443)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("api-key")
                    .hasMessageNotContaining("s3cret");
        }
    }
}

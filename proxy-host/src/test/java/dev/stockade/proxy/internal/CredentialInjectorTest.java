package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.CredentialPlaceholder;
import dev.stockade.proxy.Credential;
import dev.stockade.proxy.CredentialStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Injection finds placeholders through the core's one format and never leaks a secret into a refusal. */
class CredentialInjectorTest {
    private static final String SECRET = "ghp_s3cr3t";
    private static final Credential GITHUB = new Credential(Credential.idFor("github"), "github", SECRET,
            List.of("api.github.com"), "Authorization: Bearer {secret}");
    private static final CredentialStore STORE = CredentialStore.of(List.of(GITHUB));
    private static final CredentialInjector.Target TARGET = new CredentialInjector.Target("api.github.com", 443, true);

    private static List<Map.Entry<String, String>> headers(String name, String value) {
        return new ArrayList<>(List.of(Map.entry(name, value)));
    }

    @Test
    void theCompilersPlaceholderIsReplacedInItsOwnHeader() {
        String placeholder = CredentialPlaceholder.forName("github").text();
        List<Map.Entry<String, String>> h = headers("Authorization", "Bearer " + placeholder);
        assertThat(CredentialInjector.apply(h, TARGET, STORE, List.of())).isNull();
        assertThat(h).containsExactly(Map.entry("Authorization", "Bearer " + SECRET));
    }

    @Test
    void aMalformedOrUnknownPlaceholderRefusesTheRequestWithoutASecret() {
        List<Map.Entry<String, String>> open = headers("Authorization", "Bearer __platform_cred:1-2-3-4-5__");
        assertThat(CredentialInjector.apply(open, TARGET, STORE, List.of())).startsWith("malformed credential");
        String unknown = new CredentialPlaceholder(Credential.idFor("other")).text();
        List<Map.Entry<String, String>> h = headers("Authorization", "Bearer " + unknown);
        assertThat(CredentialInjector.apply(h, TARGET, STORE, List.of())).startsWith("unknown credential")
                .doesNotContain(SECRET);
        assertThat(h).containsExactly(Map.entry("Authorization", "Bearer " + unknown));
    }

    @Test
    void aBoundCredentialSetsItsMissingHeaderOnlyWhereItMayGo() {
        List<Map.Entry<String, String>> h = new ArrayList<>();
        assertThat(CredentialInjector.apply(h, TARGET, STORE, List.of("github"))).isNull();
        assertThat(h).containsExactly(Map.entry("Authorization", "Bearer " + SECRET));
        List<Map.Entry<String, String>> elsewhere = new ArrayList<>();
        CredentialInjector.apply(elsewhere, new CredentialInjector.Target("evil.test", 443, true), STORE,
                List.of("github"));
        assertThat(elsewhere).isEmpty();
    }
}

package dev.stockade.api.support;

import java.util.HashMap;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;

/**
 * A {@link PlatformTest} signed in through a real OIDC provider: mock-oauth2-server runs in-process (discovery
 * document, JWKS, signed tokens) and the platform trusts it with audience {@code stockade}.
 */
public abstract class OidcPlatformTest extends PlatformTest {
    protected final MockOAuth2Server idp = started();

    private static MockOAuth2Server started() {
        MockOAuth2Server s = new MockOAuth2Server();
        s.start();
        return s;
    }

    @Override
    protected final Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>();
        p.put("oidc.issuer", idp.issuerUrl("default").toString());
        p.put("oidc.audience", "stockade");
        p.putAll(oidcTestProperties());
        return p;
    }

    /** Further properties of a test class (owner emails, the direct-access role, ...). */
    protected Map<String, String> oidcTestProperties() {
        return Map.of();
    }

    /** A signed token for {@code subject} with {@code claims}, valid for an hour. */
    protected String token(String subject, Map<String, Object> claims) {
        return idp.issueToken("default", subject, "stockade", claims, 3600).serialize();
    }

    @AfterAll
    void stopIdp() {
        idp.shutdown();
    }
}

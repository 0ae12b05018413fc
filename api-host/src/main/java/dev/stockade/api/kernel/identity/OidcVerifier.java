package dev.stockade.api.kernel.identity;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.stockade.api.kernel.config.OidcConfig;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import java.net.MalformedURLException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies OIDC JWTs through the issuer's discovery document and JWKS (signature, issuer, audience, expiry), then
 * applies the sign-in rules: an address in {@code config.ownerEmails} is refused unless {@code email_verified}, and
 * {@code oidc.directAccessRole} (or only reports, with {@code oidc.directAccessReportOnly}).
 */
@Singleton
public final class OidcVerifier {
    private static final Logger LOG = LoggerFactory.getLogger(OidcVerifier.class);

    /** A verified user and when its token expires. */
    public record Verified(Identity identity, Instant expiresAt) {
    }

    private final OidcConfig config;
    private final PlatformConfig platform;
    private final OidcDiscovery discovery;
    private final SignIns signIns;
    private final AtomicReference<DefaultJWTProcessor<SecurityContext>> processor = new AtomicReference<>();

    public OidcVerifier(OidcConfig config, PlatformConfig platform, OidcDiscovery discovery, SignIns signIns) {
        this.config = config;
        this.platform = platform;
        this.discovery = discovery;
        this.signIns = signIns;
    }

    public Optional<Verified> verify(String token) {
        if (!config.enabled()) {
            return Optional.empty();
        }
        JWTClaimsSet claims;
        try {
            claims = processor().process(token, null);
        } catch (ApiProblem p) {
            throw p;
        } catch (Exception e) {
            LOG.debug("OIDC token refused: {}", e.getClass().getSimpleName());
            return Optional.empty();
        }
        String email = stringClaim(claims, "email");
        boolean verified = Boolean.TRUE.equals(claims.getClaims().get("email_verified"));
        if (platform.isOwnerEmail(email) && !verified) {
            throw new ApiProblem(ProblemCode.EMAIL_NOT_VERIFIED,
                    "the identity provider says this owner address is not verified");
        }
        Set<String> roles = roles(claims);
        checkDirectAccess(roles, claims.getSubject());
        String name = Optional.ofNullable(stringClaim(claims, "name")).orElse(stringClaim(claims, "preferred_username"));
        UserRow user = signIns.signIn(claims.getIssuer(), claims.getSubject(), email, name);
        Instant exp = claims.getExpirationTime().toInstant();
        return Optional.of(new Verified(new Identity.User(user.id(), email, verified, name, roles), exp));
    }

    private void checkDirectAccess(Set<String> roles, String subject) {
        String role = config.directAccessRole();
        if (role == null || role.isBlank() || roles.contains(role)) {
            return;
        }
        if (config.directAccessReportOnly()) {
            LOG.warn("direct access by subject {} without role {} (report only: allowed)", subject, role);
            return;
        }
        throw new ApiProblem(ProblemCode.DIRECT_ACCESS_DENIED, "direct access needs the role `" + role + "`");
    }

    private DefaultJWTProcessor<SecurityContext> processor() throws MalformedURLException {
        DefaultJWTProcessor<SecurityContext> p = processor.get();
        if (p != null) {
            return p;
        }
        OidcDiscovery.Document doc = discovery.document().orElseThrow();
        JWKSource<SecurityContext> keys = JWKSourceBuilder.create(doc.jwksUri().toURL()).retrying(true).build();
        p = new DefaultJWTProcessor<>();
        p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null));
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(
                Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512, JWSAlgorithm.ES256,
                        JWSAlgorithm.ES384, JWSAlgorithm.PS256), keys));
        p.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(config.audience(),
                new JWTClaimsSet.Builder().issuer(doc.issuer()).build(), Set.of("sub", "exp", "iat")));
        processor.compareAndSet(null, p);
        return processor.get();
    }

    private static String stringClaim(JWTClaimsSet claims, String name) {
        Object v = claims.getClaims().get(name);
        return v instanceof String s ? s : null;
    }

    /** Realm roles as Keycloak writes them ({@code realm_access.roles}) or a plain {@code roles} claim. */
    private static Set<String> roles(JWTClaimsSet claims) {
        Set<String> out = new LinkedHashSet<>();
        Object realm = claims.getClaims().get("realm_access");
        if (realm instanceof Map<?, ?> m && m.get("roles") instanceof List<?> l) {
            l.forEach(r -> out.add(String.valueOf(r)));
        }
        if (claims.getClaims().get("roles") instanceof List<?> l) {
            l.forEach(r -> out.add(String.valueOf(r)));
        }
        return Set.copyOf(out);
    }
}

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
import io.micronaut.context.BeanProvider;
import io.micronaut.core.annotation.Nullable;
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
 * Verifies OIDC JWTs (signature, issuer, audience, expiry): an external provider's through its discovery document and
 * JWKS, or, when {@code oidc.issuer} is not set, the embedded provider's through its {@link LocalIssuer} keys. Then
 * applies the sign-in rules to both alike: an address in {@code config.ownerEmails} is refused unless {@code email_verified}, and
 * {@code oidc.directAccessRole} (or only reports, with {@code oidc.directAccessReportOnly}).
 */
@Singleton
public final class OidcVerifier {
    private static final Logger LOG = LoggerFactory.getLogger(OidcVerifier.class);

    /**
     * A verified user and when its token expires; {@code audiences} are the resources an embedded provider's token is
     * bound to, null for an external provider's (whose audience is {@code oidc.audience} everywhere).
     */
    public record Verified(Identity identity, Instant expiresAt, @Nullable Set<String> audiences) {
    }

    private final OidcConfig config;
    private final PlatformConfig platform;
    private final OidcDiscovery discovery;
    private final SignIns signIns;
    private final BeanProvider<LocalIssuer> local;
    private final AtomicReference<DefaultJWTProcessor<SecurityContext>> processor = new AtomicReference<>();

    public OidcVerifier(OidcConfig config, PlatformConfig platform, OidcDiscovery discovery, SignIns signIns,
                        BeanProvider<LocalIssuer> local) {
        this.config = config;
        this.platform = platform;
        this.discovery = discovery;
        this.signIns = signIns;
        this.local = local;
    }

    public Optional<Verified> verify(String token) {
        if (!config.enabled() && !local.isPresent()) {
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
        Set<String> roles = roles(claims);
        checkSignIn(email, verified, roles, claims.getSubject());
        String name = Optional.ofNullable(stringClaim(claims, "name")).orElse(stringClaim(claims, "preferred_username"));
        UserRow user = signIns.signIn(claims.getIssuer(), claims.getSubject(), email, name);
        Instant exp = claims.getExpirationTime().toInstant();
        Set<String> audiences = config.enabled() ? null : Set.copyOf(claims.getAudience());
        return Optional.of(new Verified(new Identity.User(user.id(), email, verified, name, roles), exp, audiences));
    }

    /**
     * The sign-in rules alone, for a person the embedded provider has just checked (a browser session): the owner
     * address must be verified, and the direct-access role gate applies, exactly as for a bearer token.
     */
    public void checkSignIn(@Nullable String email, boolean emailVerified, Set<String> roles, String subject) {
        if (platform.isOwnerEmail(email) && !emailVerified) {
            throw new ApiProblem(ProblemCode.EMAIL_NOT_VERIFIED,
                    "the identity provider says this owner address is not verified");
        }
        checkDirectAccess(roles, subject);
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
        if (!config.enabled()) {
            processor.compareAndSet(null, localProcessor(local.get()));
            return processor.get();
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

    /** The embedded provider's tokens: its keys, its issuer, and an audience that the caller checks per resource. */
    private static DefaultJWTProcessor<SecurityContext> localProcessor(LocalIssuer issuer) {
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("at+jwt")));
        JWKSource<SecurityContext> keys = (selector, context) -> selector.select(issuer.publicKeys());
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.ES256, keys));
        p.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(null,
                new JWTClaimsSet.Builder().issuer(issuer.issuer()).build(), Set.of("sub", "exp", "iat", "aud")));
        return p;
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

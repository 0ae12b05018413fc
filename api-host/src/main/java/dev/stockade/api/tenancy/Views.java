package dev.stockade.api.tenancy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.nimbusds.jose.jwk.ECKey;
import dev.stockade.api.kernel.identity.ApiTokenRow;
import dev.stockade.api.kernel.identity.ProxyTokenRow;
import dev.stockade.api.kernel.identity.SandboxTokenRow;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Response bodies of the tenancy routes. None carries a secret except {@link CreatedToken}, shown once. */
public final class Views {
    private Views() {
    }

    @Introspected
    public record OrgView(UUID id, String name, boolean halted, Instant createdAt) {
        static OrgView of(Organization o) {
            return new OrgView(o.id(), o.name(), o.halted(), o.createdAt());
        }
    }

    @Introspected
    public record ProjectView(UUID id, UUID orgId, String name, String description, Instant createdAt) {
        static ProjectView of(Project p) {
            return new ProjectView(p.id(), p.orgId(), p.name(), p.description(), p.createdAt());
        }
    }

    @Introspected
    public record MemberView(UUID userId, @Nullable String email, @Nullable String name, String role) {
    }

    @Introspected
    public record ProjectMemberView(String principalType, UUID principalId, @Nullable String name, String role) {
    }

    @Introspected
    public record InvitationView(UUID id, UUID orgId, String email, String role, Instant createdAt,
                                 @Nullable Instant acceptedAt) {
    }

    /** Any kind of token as listed: API, sandbox or proxy (a proxy token never expires). */
    @Introspected
    public record TokenView(UUID id, String name, String prefix, Instant createdAt, @Nullable Instant expiresAt,
                            @Nullable Instant revokedAt) {
        static TokenView of(ApiTokenRow t) {
            return new TokenView(t.id(), t.name(), t.prefix(), t.createdAt(), t.expiresAt(), t.revokedAt());
        }

        static TokenView of(SandboxTokenRow t) {
            return new TokenView(t.id(), t.name(), t.prefix(), t.createdAt(), t.expiresAt(), t.revokedAt());
        }

        static TokenView of(ProxyTokenRow t) {
            return new TokenView(t.id(), t.name(), t.prefix(), t.createdAt(), null, t.revokedAt());
        }
    }

    /** A token just minted: the one answer that carries the token itself. */
    @Introspected
    public record CreatedToken(UUID id, String name, String prefix, String token, @Nullable Instant expiresAt) {
        static CreatedToken of(TokenView minted, String token) {
            return new CreatedToken(minted.id(), minted.name(), minted.prefix(), token, minted.expiresAt());
        }
    }

    // List answers are one record per element type, not a generic page: the OpenAPI generator does not resolve a
    // record's type arguments, so a generic page would document its items as bare objects.

    /** The organizations the caller belongs to. */
    @Introspected
    public record Orgs(List<OrgView> items) {
    }

    /** The members of an organization. */
    @Introspected
    public record Members(List<MemberView> items) {
    }

    /** Projects of an organization. */
    @Introspected
    public record Projects(List<ProjectView> items) {
    }

    /** The people and API tokens of a project. */
    @Introspected
    public record ProjectMembers(List<ProjectMemberView> items) {
    }

    /** API, sandbox or proxy tokens (never their secrets). */
    @Introspected
    public record Tokens(List<TokenView> items) {
    }

    /** Invitations of an organization, or the caller's own. */
    @Introspected
    public record Invitations(List<InvitationView> items) {
    }

    /** A project member as set through MCP: {@code role} is {@code ADMIN}, {@code MEMBER} or {@code NONE} (removed). */
    @Introspected
    public record MemberSet(UUID projectId, String principalType, UUID principalId, String role) {
    }

    /** The key id a rotation made active. */
    @Introspected
    public record RotatedKey(String kid) {
    }

    /**
     * A public key as a JSON Web Key (RFC 7517): an EC P-256 key by its coordinates. Members a key does not have are
     * left out, so a project without a key shows {@code {}}.
     */
    @Introspected
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Jwk(@Nullable String kty, @Nullable String use, @Nullable String alg, @Nullable String kid,
                      @Nullable String crv, @Nullable String x, @Nullable String y) {
        static final Jwk NONE = new Jwk(null, null, null, null, null, null, null);

        static Jwk of(ECKey k) {
            return new Jwk(k.getKeyType().getValue(), k.getKeyUse() == null ? null : k.getKeyUse().identifier(),
                    k.getAlgorithm() == null ? null : k.getAlgorithm().getName(), k.getKeyID(), k.getCurve().getName(),
                    k.getX().toString(), k.getY().toString());
        }
    }

    /** The project's active public key and the algorithm it signs with. */
    @Introspected
    public record PublicKey(Jwk key, String algorithm) {
    }

    /** A JSON Web Key Set (RFC 7517): the keys a project's tokens may be signed with. */
    @Introspected
    public record JwkSet(List<Jwk> keys) {
    }
}

package dev.stockade.api.tenancy;

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

    @Introspected
    public record TokenView(UUID id, String name, String prefix, Instant createdAt, @Nullable Instant expiresAt,
                            @Nullable Instant revokedAt) {
    }

    @Introspected
    public record CreatedToken(UUID id, String name, String prefix, String token, @Nullable Instant expiresAt) {
    }

    @Introspected
    public record Page<T>(List<T> items) {
    }
}

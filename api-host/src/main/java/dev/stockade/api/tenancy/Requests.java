package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.web.DisplayName;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Instant;

/** Request bodies of the tenancy routes. Unknown fields are refused (strict reading); sizes are bounded. */
public final class Requests {
    private Requests() {
    }

    @Introspected
    public record CreateOrg(@NotBlank @DisplayName String name) {
    }

    @Introspected
    public record UpdateOrg(@NotBlank @DisplayName String name) {
    }

    @Introspected
    public record CreateProject(@NotBlank @DisplayName String name,
                                @Nullable @Size(max = 2000) String description) {
    }

    @Introspected
    public record UpdateProject(@Nullable @DisplayName String name,
                                @Nullable @Size(max = 2000) String description) {
    }

    @Introspected
    public record SetRole(@NotNull Role role) {
    }

    @Introspected
    public record CreateInvitation(@NotBlank @Email @Size(max = 320) String email, @NotNull Role role) {
    }

    @Introspected
    public record CreateProxyToken(@NotBlank @DisplayName String name) {
    }

    @Introspected
    public record CreateToken(@NotBlank @DisplayName String name, @Nullable Instant expiresAt) {
    }

    /** The two roles of organization and project members. */
    public enum Role { ADMIN, MEMBER }
}

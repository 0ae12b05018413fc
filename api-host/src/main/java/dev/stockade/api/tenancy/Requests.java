package dev.stockade.api.tenancy;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;

/** Request bodies of the tenancy routes. Unknown fields are refused (strict reading); sizes are bounded. */
public final class Requests {
    private Requests() {
    }

    /** A display name: 1 to 100 characters, no control characters. */
    static final String NAME = "[^\\p{Cntrl}]{1,100}";

    @Introspected
    public record CreateOrg(@NotBlank @Pattern(regexp = NAME) String name) {
    }

    @Introspected
    public record UpdateOrg(@NotBlank @Pattern(regexp = NAME) String name) {
    }

    @Introspected
    public record CreateProject(@NotBlank @Pattern(regexp = NAME) String name,
                                @Nullable @Size(max = 2000) String description) {
    }

    @Introspected
    public record UpdateProject(@Nullable @Pattern(regexp = NAME) String name,
                                @Nullable @Size(max = 2000) String description) {
    }

    @Introspected
    public record SetRole(@NotNull Role role) {
    }

    @Introspected
    public record CreateInvitation(@NotBlank @Email @Size(max = 320) String email, @NotNull Role role) {
    }

    @Introspected
    public record CreateProxyToken(@NotBlank @Pattern(regexp = NAME) String name) {
    }

    @Introspected
    public record CreateToken(@NotBlank @Pattern(regexp = NAME) String name, @Nullable Instant expiresAt) {
    }

    /** The two roles of organization and project members. */
    public enum Role { ADMIN, MEMBER }
}

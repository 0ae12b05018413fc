package dev.stockade.api.enrollment;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.config.PlatformVersion;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;

/** {@code GET /health} (root, no auth, before enrollment) and {@code GET /v1/installation} (no auth). */
@Controller
@Tag(name = "installation")
record InstallationController(EnrollmentGate gate, Enrollment enrollment) {
    @Introspected
    record Health(String status, String version) {
    }

    /** The installation status: {@code enrolled}, {@code connection} and warnings an operator should see. */
    @Introspected
    record Status(boolean enrolled, String connection, boolean revoked, @Nullable String hubUrl, boolean devHub,
                  @Nullable String fleetId, String version, List<String> warnings) {
    }

    @Get("/health")
    @Access(Action.HEALTH)
    Health health() {
        gate.current();
        return new Health("ok", PlatformVersion.VALUE);
    }

    @Get("/v1/installation")
    @Access(Action.INSTALLATION_READ)
    Status installation() {
        InstallationStore.Row row = gate.current();
        return new Status(row.enrolled(), enrollment.connection().name().toLowerCase(), row.revokedAt() != null,
                row.hubUrl() != null ? row.hubUrl() : enrollment.hubUrl().map(Object::toString).orElse(null),
                enrollment.devHub().isPresent(),
                row.fleetId(), PlatformVersion.VALUE, enrollment.warnings());
    }
}

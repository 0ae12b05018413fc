package dev.stockade.api.enrollment;

import dev.stockade.api.kernel.access.WorkGate;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Refuses agent work until the installation is enrolled (and after the hub revokes it). The state is read from the
 * database at most every two seconds, so every replica follows an enrollment or revocation made by another.
 */
@Singleton
public class EnrollmentGate implements WorkGate {
    private static final Duration REFRESH = Duration.ofSeconds(2);

    private final InstallationStore store;
    private final Clock clock;
    private volatile InstallationStore.Row row;
    private volatile Instant readAt = Instant.EPOCH;

    public EnrollmentGate(InstallationStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Throws 503 {@code fleet_enrollment_required} (or {@code _revoked}) unless agent work may go on. */
    @Override
    public void check() {
        InstallationStore.Row r = current();
        if (r.revokedAt() != null) {
            throw new ApiProblem(ProblemCode.FLEET_ENROLLMENT_REVOKED,
                    "the enrollment hub revoked this installation; agent work has stopped");
        }
        if (r.enrolledAt() == null) {
            throw new ApiProblem(ProblemCode.FLEET_ENROLLMENT_REQUIRED,
                    "this installation is not enrolled with the hub yet; an operator completes enrollment at /setup");
        }
    }

    public InstallationStore.Row current() {
        Instant now = clock.instant();
        InstallationStore.Row r = row;
        if (r == null || readAt.plus(REFRESH).isBefore(now)) {
            r = store.load();
            row = r;
            readAt = now;
        }
        return r;
    }

    /** Forgets the cached state after a change on this replica. */
    public void refresh() {
        row = null;
    }
}

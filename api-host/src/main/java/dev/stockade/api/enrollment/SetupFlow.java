package dev.stockade.api.enrollment;

import dev.stockade.api.kernel.config.HubConfig;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enrollment through the setup code, shared by the setup screen (a browser) and the activation device flow (a CLI):
 * the code is checked in constant time, a wrong one answered after one second without holding a thread, a right one
 * opens a session whose state goes through the hub; the hub sends the browser back with a one-time code, which is
 * exchanged server-side for the fleet and its access token, so that token never reaches the browser.
 */
@Singleton
class SetupFlow {
    static final Duration SESSION_TTL = Duration.ofMinutes(10);
    static final Duration WRONG_CODE_DELAY = Duration.ofSeconds(1);
    /** Wrong-code answers waiting out their delay at once; beyond this, attempts are refused before the check. */
    static final int MAX_DELAYED = 64;
    private static final Logger LOG = LoggerFactory.getLogger(SetupFlow.class);

    /** How a hub's return ended: an HTTP status for the result page, whether it enrolled, and what to tell people. */
    record Outcome(int status, boolean enrolled, EnrollmentSessions.Kind kind, String message) {
    }

    private final SetupCode code;
    private final EnrollmentSessions sessions;
    private final Enrollment enrollment;
    private final EnrollmentGate gate;
    private final InstallationStore store;
    private final HubConfig hub;
    private final Semaphore delayed = new Semaphore(MAX_DELAYED);
    private final Executor afterDelay = CompletableFuture.delayedExecutor(WRONG_CODE_DELAY.toMillis(),
            TimeUnit.MILLISECONDS, Runnable::run);

    SetupFlow(SetupCode code, EnrollmentSessions sessions, Enrollment enrollment, EnrollmentGate gate,
              InstallationStore store, HubConfig hub) {
        this.code = code;
        this.sessions = sessions;
        this.enrollment = enrollment;
        this.gate = gate;
        this.store = store;
        this.hub = hub;
    }

    /** 404 unless the setup screen is offered and a hub is named to continue at. */
    void requireOffered() {
        if (!code.offered()) {
            throw new ApiProblem(ProblemCode.NOT_FOUND, "the setup screen is not offered: this installation enrolls"
                    + " from its hub values (hub.fleetId), or hub.setup.enabled is false");
        }
        if (enrollment.hubUrl().isEmpty()) {
            throw new ApiProblem(ProblemCode.NOT_FOUND, "the setup screen needs hub.url, the enrollment hub to"
                    + " continue at; it is not set");
        }
    }

    boolean enrolled() {
        gate.refresh();
        return gate.current().enrolled();
    }

    /**
     * Checks a setup code. A right one starts a session at once; a wrong one completes empty after one second. The
     * slot is taken before the check, so a refusal for being busy says nothing about the code.
     */
    CompletableFuture<Optional<EnrollmentSessions.Started>> check(String candidate, EnrollmentSessions.Kind kind) {
        if (!delayed.tryAcquire()) {
            throw new ApiProblem(ProblemCode.TOO_MANY_ATTEMPTS, "too many setup code attempts at once; try again");
        }
        if (code.matches(candidate)) {
            delayed.release();
            LOG.info("setup code accepted ({}); continuing at the hub", kind.name().toLowerCase());
            return CompletableFuture.completedFuture(Optional.of(sessions.create(kind, SESSION_TTL)));
        }
        LOG.warn("a wrong setup code was entered ({}); answered after {} s", kind.name().toLowerCase(),
                WRONG_CODE_DELAY.toSeconds());
        return CompletableFuture.supplyAsync(() -> {
            delayed.release();
            return Optional.<EnrollmentSessions.Started>empty();
        }, afterDelay);
    }

    /**
     * Where the browser continues: {@code {hub}/enroll?return={publicUrl}/setup/callback&publicUrl=...&state=...},
     * at {@code hub.publicUrl} when people open the hub elsewhere than the installation reaches it.
     */
    URI hubEnrollUrl(EnrollmentSessions.Started session) {
        String publicUrl = enrollment.publicUrl();
        return URI.create(hubBrowserUrl().toString().replaceAll("/+$", "") + "/enroll?return=" + enc(publicUrl + "/setup/callback")
                + "&publicUrl=" + enc(publicUrl) + "&state=" + enc(session.state()));
    }

    /** Where people open the hub: {@code hub.publicUrl}, else the hub's own URL. */
    URI hubBrowserUrl() {
        return hub.publicUrl() != null && !hub.publicUrl().isBlank() ? URI.create(hub.publicUrl())
                : enrollment.hubUrl().orElseThrow();
    }

    /** The hub's return: claims the session (once), exchanges the code server-side, stores the fleet and enrolls. */
    Outcome callback(String hubCode, String state, String hubError, String cookie) {
        requireOffered();
        if (state == null || state.isBlank()) {
            return new Outcome(400, false, EnrollmentSessions.Kind.BROWSER, "the hub's answer carries no state;"
                    + " start again at /setup");
        }
        Optional<EnrollmentSessions.Claimed> claimed = sessions.claim(state, cookie);
        if (claimed.isEmpty()) {
            return new Outcome(400, false, EnrollmentSessions.Kind.BROWSER, "this setup link is unknown, already used,"
                    + " expired, or was started in another browser; start again at /setup");
        }
        EnrollmentSessions.Claimed session = claimed.get();
        Outcome outcome = exchange(session.kind(), hubCode, hubError);
        sessions.finish(session.id(), outcome.enrolled() ? null : outcome.message());
        return outcome;
    }

    private Outcome exchange(EnrollmentSessions.Kind kind, String hubCode, String hubError) {
        if (hubError != null) {
            String shown = hubError.replaceAll("[^A-Za-z0-9_.-]", "");
            return new Outcome(400, false, kind, "the hub did not approve the enrollment ("
                    + shown.substring(0, Math.min(64, shown.length())) + ")");
        }
        if (hubCode == null || hubCode.isBlank()) {
            return new Outcome(400, false, kind, "the hub's answer carries no code");
        }
        if (enrolled()) {
            return new Outcome(409, false, kind, "this installation is already enrolled");
        }
        URI hubUrl = enrollment.hubUrl().orElseThrow();
        HubClient client = enrollment.client(hubUrl);
        try {
            HubClient.Fleet fleet = client.exchangeSetupCode(hubCode);
            if (fleet.fleetId().isBlank() || fleet.accessToken().isBlank()) {
                return new Outcome(502, false, kind, "the hub's setup exchange named no fleet or access token");
            }
            store.saveFleet(fleet.fleetId(), hubUrl.toString(), fleet.accessToken(), false);
            enrollment.complete(client);
            return new Outcome(200, true, kind, "this installation is enrolled as fleet " + fleet.fleetId());
        } catch (HubClient.HubException e) {
            LOG.warn("setup: {}", e.getMessage());
            return new Outcome(502, false, kind, e.getMessage());
        } catch (Enrollment.Refused e) {
            return new Outcome(409, false, kind, e.getMessage());
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}

package dev.stockade.api.enrollment;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Problems;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.util.concurrent.CompletableFuture;

/**
 * The activation device flow (no auth, not gated): a CLI proves the setup code and gets a URL for a person to open in
 * a browser ({@code POST /v1/installation/activation}), then polls the session
 * ({@code GET /v1/installation/activation/{sessionId}}) until it is enrolled, failed or expired.
 */
@Controller("/v1/installation/activation")
@Tag(name = "installation")
class ActivationController {
    /** How often a poller should ask, in seconds. */
    static final int POLL_INTERVAL = 5;

    private final SetupFlow flow;
    private final EnrollmentSessions sessions;
    private final Problems problems;

    ActivationController(SetupFlow flow, EnrollmentSessions sessions, Problems problems) {
        this.flow = flow;
        this.sessions = sessions;
        this.problems = problems;
    }

    /** The setup code, as the setup screen asks for it. */
    @Introspected
    record Start(@NotBlank @Size(max = 256) String setupCode) {
    }

    /** A started session: where a person continues, and how long and how often to poll. */
    @Introspected
    record Started(String sessionId, String verificationUri, long expiresIn, int interval) {
    }

    /** A session's state: {@code pending}, {@code enrolled}, {@code failed} (with {@code error}) or {@code expired}. */
    @Introspected
    record Polled(String status, @Nullable String error) {
    }

    @Post
    @Access(Action.INSTALLATION_ACTIVATE)
    @ApiResponse(responseCode = "200", description = "the session a person continues at the hub",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = Started.class)))
    CompletableFuture<HttpResponse<?>> start(@Valid @Body Start body) {
        flow.requireOffered();
        if (flow.enrolled()) {
            throw new ApiProblem(ProblemCode.CONFLICT, "this installation is already enrolled");
        }
        return flow.check(body.setupCode(), EnrollmentSessions.Kind.DEVICE).thenApply(started -> started
                .<HttpResponse<?>>map(s -> HttpResponse.ok(new Started(s.id(), flow.hubEnrollUrl(s).toString(),
                        SetupFlow.SESSION_TTL.toSeconds(), POLL_INTERVAL)))
                .orElseGet(() -> problems.response(ProblemCode.SETUP_CODE_INVALID, "the setup code is not right")));
    }

    @Get("/{sessionId}")
    @Access(Action.INSTALLATION_ACTIVATE)
    Polled poll(String sessionId) {
        if (!sessionId.matches("[A-Za-z0-9_-]{1,64}")) {
            throw ApiProblem.notFound("activation session");
        }
        EnrollmentSessions.Status s = sessions.status(sessionId)
                .orElseThrow(() -> ApiProblem.notFound("activation session"));
        return new Polled(s.status(), s.error());
    }
}

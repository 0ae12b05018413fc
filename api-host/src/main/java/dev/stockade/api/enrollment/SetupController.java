package dev.stockade.api.enrollment;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.CookieValue;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The setup screen, served while the installation has no hub values and {@code hub.setup.enabled}: {@code GET /setup}
 * (the form), {@code POST /setup} (the code; a right one redirects to the hub), {@code GET /setup/callback} (the
 * hub's return). Otherwise these routes answer 404.
 */
@Controller("/setup")
@Tag(name = "installation")
record SetupController(SetupFlow flow, Enrollment enrollment) {
    /** The cookie binding a setup session to the browser that entered the code. */
    static final String COOKIE = "stockade_setup";

    @Get
    @Produces(MediaType.TEXT_HTML)
    @Access(Action.SETUP)
    MutableHttpResponse<String> page() {
        flow.requireOffered();
        return flow.enrolled() ? SetupPages.enrolled() : SetupPages.form(200, null, hubOrigin());
    }

    @Post
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Access(Action.SETUP)
    @ApiResponse(responseCode = "303", description = "on to the hub, where a person signs in")
    @ApiResponse(responseCode = "403", description = "the setup screen again: the code is not right",
            content = @Content(mediaType = MediaType.TEXT_HTML, schema = @Schema(type = "string")))
    @ApiResponse(responseCode = "409", description = "the installation is already enrolled",
            content = @Content(mediaType = MediaType.TEXT_HTML, schema = @Schema(type = "string")))
    CompletableFuture<MutableHttpResponse<String>> submit(@Body Map<String, String> form) {
        flow.requireOffered();
        if (flow.enrolled()) {
            return CompletableFuture.completedFuture(SetupPages.enrolled().status(409));
        }
        return flow.check(form.get("setupCode"), EnrollmentSessions.Kind.BROWSER).thenApply(started -> started
                .map(s -> HttpResponse.<String>seeOther(flow.hubEnrollUrl(s))
                        .cookie(Cookie.of(COOKIE, s.binding()).path("/setup").httpOnly(true).sameSite(SameSite.Lax)
                                .secure(enrollment.publicUrl().startsWith("https:"))
                                .maxAge(SetupFlow.SESSION_TTL))
                        .header("Cache-Control", "no-store").header("Referrer-Policy", "no-referrer"))
                .orElseGet(() -> SetupPages.form(403, "That setup code is not right.", hubOrigin())));
    }

    @Get("/callback")
    @Produces(MediaType.TEXT_HTML)
    @Access(Action.SETUP)
    MutableHttpResponse<String> callback(@QueryValue @Nullable String code, @QueryValue @Nullable String state,
                                         @QueryValue @Nullable String error,
                                         @CookieValue(COOKIE) @Nullable String cookie) {
        SetupFlow.Outcome outcome = flow.callback(code, state, error, cookie);
        return SetupPages.result(outcome).cookie(Cookie.of(COOKIE, "").path("/setup").maxAge(0));
    }

    private URI hubOrigin() {
        return flow.hubBrowserUrl();
    }
}

package dev.stockade.api.ui;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.identity.BrowserSession;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.CookieValue;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.Optional;

/**
 * The admin UI: one page shell for every {@code /ui/...} address (the page's script draws the view the address
 * names, so every view can be linked and reloaded) and the static assets under {@code /ui/assets/}. The UI has no
 * back door: its script calls the REST API with the person's session and CSRF token, through the same access gate,
 * authorization table and audit as any other client.
 */
@Controller("/ui")
@Tag(name = "admin UI")
@ExecuteOn(TaskExecutors.BLOCKING)
final class UiController {
    private static final String ASSETS = "assets/";

    private final BrowserSession sessions;
    private final UiAssets assets;

    UiController(BrowserSession sessions, UiAssets assets) {
        this.sessions = sessions;
        this.assets = assets;
    }

    @Get(produces = MediaType.TEXT_HTML)
    @Access(Action.UI)
    MutableHttpResponse<?> home(@CookieValue(BrowserSession.COOKIE) @Nullable String session) {
        return shell(session);
    }

    @Get("/{path:.+}")
    @Access(Action.UI)
    MutableHttpResponse<?> view(@PathVariable String path, @CookieValue(BrowserSession.COOKIE) @Nullable String session,
                                @Header("If-None-Match") @Nullable String etag) {
        if (path.startsWith(ASSETS)) {
            return assets.serve(path.substring(ASSETS.length()), etag);
        }
        return shell(session);
    }

    /** The shell for a live session; anyone else is sent to {@code /}, which starts a sign-in. */
    private MutableHttpResponse<?> shell(@Nullable String session) {
        Optional<Identity.User> user = session == null ? Optional.empty() : sessions.user(session);
        if (user.isEmpty()) {
            return HttpResponse.status(HttpStatus.SEE_OTHER).header("Location", URI.create("/").toString())
                    .header("Cache-Control", "no-store");
        }
        return Shell.page(user.get(), BrowserSession.csrfToken(session), assets);
    }
}

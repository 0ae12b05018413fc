package dev.stockade.api.signin;

import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /oauth/callback}: the one redirect URI of loopback sign-ins (spec 0.31.0: "loopback sign-ins use
 * <public URL>/oauth/callback with PKCE S256"). The CLI names its listener's port at the head of {@code state}
 * ({@code <port>~<nonce>}); the browser is sent on, query unchanged, to {@code http://127.0.0.1:<port>/callback}. Only
 * that address is ever a target, and a code delivered elsewhere is worthless without the CLI's PKCE verifier.
 */
@Controller("/oauth/callback")
@Tag(name = "sign-in")
class LoopbackCallbackController {
    private static final Pattern STATE = Pattern.compile("([0-9]{4,5})~[A-Za-z0-9_-]{16,128}");

    @Get(produces = MediaType.TEXT_HTML)
    @Access(Action.SIGNIN)
    MutableHttpResponse<String> forward(HttpRequest<?> request) {
        String state = request.getParameters().get("state");
        Matcher m = state == null ? null : STATE.matcher(state);
        int port = m != null && m.matches() ? Integer.parseInt(m.group(1)) : -1;
        if (port < 1024 || port > 65535) {
            return SignInPages.refused(400, "This sign-in return names no command-line sign-in to go back to.");
        }
        String query = request.getUri().getRawQuery();
        return HttpResponse.<String>seeOther(URI.create("http://127.0.0.1:" + port + "/callback?" + query))
                .header("Cache-Control", "no-store").header("Referrer-Policy", "no-referrer");
    }
}

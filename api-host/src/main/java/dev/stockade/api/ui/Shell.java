package dev.stockade.api.ui;

import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import org.apache.commons.text.StringEscapeUtils;

/**
 * The one HTML page of the admin UI: the frame (header with the person and sign-out, navigation, the halt and
 * hub-heartbeat banners, the main region) and the script that draws views into it. Server-rendered parts are
 * escaped; the script builds the rest from the REST API's answers with DOM text nodes, never markup.
 */
final class Shell {
    /**
     * No inline script or style and no third-party origin: the page can run only its own assets and talk only to
     * its own origin (WebSockets to it included).
     */
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none';"
            + " form-action 'self'";

    private Shell() {
    }

    static MutableHttpResponse<String> page(Identity.User user, String csrf, UiAssets assets) {
        String who = user.name() == null || user.name().isBlank() ? nullToEmpty(user.email())
                : user.name() + " (" + nullToEmpty(user.email()) + ")";
        String html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<meta name=\"stockade-csrf\" content=\"" + esc(csrf) + "\">"
                + "<meta name=\"stockade-user\" content=\"" + esc(user.userId().toString()) + "\">"
                + "<title>Stockade</title>"
                + "<link rel=\"stylesheet\" href=\"" + assets.url("style.css") + "\">"
                + "<script type=\"module\" src=\"" + assets.url("app.js") + "\"></script></head><body>"
                + "<a class=\"skip\" href=\"#main\">Skip to content</a>"
                + "<header><a class=\"brand\" href=\"/ui/\">Stockade</a>"
                + "<div id=\"context\" class=\"context\"></div>"
                + "<span class=\"who\">Signed in as <strong id=\"who\">" + esc(who) + "</strong></span>"
                + "<form method=\"post\" action=\"/signout\"><input type=\"hidden\" name=\"csrf\" value=\""
                + esc(csrf) + "\"><button id=\"signout\" type=\"submit\">Sign out</button></form></header>"
                + "<div id=\"banners\" aria-live=\"polite\"></div>"
                + "<div class=\"layout\"><nav id=\"nav\" aria-label=\"Sections\"></nav>"
                + "<main id=\"main\" tabindex=\"-1\"><p class=\"loading\">Loading…</p>"
                + "<noscript>The admin UI needs JavaScript; the REST API and the CLI do not.</noscript></main></div>"
                + "</body></html>";
        return HttpResponse.ok(html).contentType(MediaType.TEXT_HTML_TYPE)
                .header("Content-Security-Policy", CSP)
                .header("X-Frame-Options", "DENY")
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "same-origin")
                .header("Cache-Control", "no-store");
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String esc(String s) {
        return StringEscapeUtils.escapeHtml4(s);
    }
}

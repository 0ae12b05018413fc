package dev.stockade.api.enrollment;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import java.net.URI;
import org.apache.commons.text.StringEscapeUtils;

/**
 * The setup screen's HTML: small, self-contained (no scripts, no external assets), sent with a strict content
 * security policy, never cached, never framed, and with no referrer, so the hub's one-time code in the callback
 * address does not leak to another site.
 */
final class SetupPages {
    private SetupPages() {
    }

    static MutableHttpResponse<String> form(int status, String error, URI hubOrigin) {
        String body = "<p>This installation is not enrolled with an enrollment hub yet. Enter the setup code (the"
                + " first start printed where it is kept) to continue at the hub, sign in there and choose the"
                + " owner.</p>"
                + (error == null ? "" : "<p class=\"error\" role=\"alert\">" + escape(error) + "</p>")
                + "<form method=\"post\" action=\"/setup\">"
                + "<label for=\"setupCode\">Setup code</label>"
                + "<input id=\"setupCode\" name=\"setupCode\" type=\"password\" autocomplete=\"off\" required"
                + " minlength=\"16\" maxlength=\"256\" autofocus>"
                + "<button type=\"submit\">Continue to the hub</button></form>";
        return page(status, "Set up Stockade", body, hubOrigin);
    }

    static MutableHttpResponse<String> enrolled() {
        return page(200, "Stockade is enrolled", "<p>This installation is enrolled with its hub. Nothing to set up."
                + "</p>", null);
    }

    static MutableHttpResponse<String> result(SetupFlow.Outcome outcome) {
        String next = outcome.kind() == EnrollmentSessions.Kind.DEVICE
                ? "You can close this window and return to your terminal."
                : outcome.enrolled() ? "Sign in to start using it." : "<a href=\"/setup\">Start again</a>.";
        String title = outcome.enrolled() ? "Stockade is enrolled" : "Enrollment did not complete";
        return page(outcome.status(), title, "<p" + (outcome.enrolled() ? "" : " class=\"error\" role=\"alert\"") + ">"
                + escape(outcome.message()) + "</p><p>" + next + "</p>", null);
    }

    private static MutableHttpResponse<String> page(int status, String title, String body, URI hubOrigin) {
        String html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + escape(title) + "</title><style>"
                + "body{font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#222}"
                + "label{display:block;margin:1rem 0 .3rem}input{width:100%;padding:.5rem;font-size:1rem}"
                + "button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem}.error{color:#a00}"
                + "</style></head><body><h1>" + escape(title) + "</h1>" + body + "</body></html>";
        // the form posts here and is redirected to the hub; browsers apply form-action to that redirect too
        String formAction = "'self'" + (hubOrigin == null ? "" : " " + hubOrigin.getScheme() + "://"
                + hubOrigin.getRawAuthority());
        return HttpResponse.<String>status(HttpStatus.valueOf(status)).contentType(MediaType.TEXT_HTML_TYPE)
                .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action "
                        + formAction + "; frame-ancestors 'none'; base-uri 'none'")
                .header("Cache-Control", "no-store")
                // not no-referrer: with it Chromium posts the form with `Origin: null`, which the HTTP server's
                // drive-by-localhost guard refuses with a bare 403 before the setup code is read
                .header("Referrer-Policy", "same-origin")
                .header("X-Frame-Options", "DENY")
                .body(html);
    }

    /** Text and attribute values of a page, escaped by commons-text rather than by hand. */
    static String escape(String s) {
        return StringEscapeUtils.escapeHtml4(s);
    }
}

package dev.stockade.api.signin;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import org.apache.commons.text.StringEscapeUtils;

/**
 * The sign-in pages: server-rendered HTML without any script, sent with a strict content security policy (the one
 * style block allowed by its hash), never cached, never framed, without a referrer to other sites. Every form carries the CSRF token.
 */
final class SignInPages {
    /** The label the embedded provider carries wherever a person or a tool meets it. */
    static final String EMBEDDED_LABEL = "Embedded sign-in for one machine; configure oidc.* for production.";
    private static final String STYLE = "body{font-family:system-ui,sans-serif;max-width:30rem;margin:4rem auto;"
            + "padding:0 1rem;color:#222}label{display:block;margin:1rem 0 .3rem}input{width:100%;padding:.5rem;"
            + "font-size:1rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem}"
            + ".error{color:#a00}.note{color:#555;font-size:.9rem;border-left:3px solid #999;padding-left:.6rem}";
    private static final String STYLE_HASH = "'sha256-" + sha256(STYLE) + "'";

    private SignInPages() {
    }

    /** The sign-in form of an authorization request; {@code back} is the client's origin, where the form may lead. */
    static MutableHttpResponse<String> login(int status, Map<String, String> request, String csrf, String error,
                                             URI back) {
        StringBuilder hidden = new StringBuilder();
        request.forEach((k, v) -> hidden.append(hidden(k, v)));
        String body = "<p class=\"note\">" + EMBEDDED_LABEL + "</p>"
                + (error == null ? "" : "<p class=\"error\" role=\"alert\">" + escape(error) + "</p>")
                + "<form method=\"post\" action=\"/signin/authorize\">" + hidden + hidden(Csrf.FIELD, csrf)
                + "<label for=\"email\">Email</label>"
                + "<input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"username\" required autofocus>"
                + "<label for=\"password\">Password</label>"
                + "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\""
                + " required>"
                + "<button type=\"submit\">Sign in</button></form>";
        return page(status, "Sign in to Stockade", body, "'self' " + origin(back));
    }

    /** A refusal shown here, because nothing proves where else to send the browser. */
    static MutableHttpResponse<String> refused(int status, String message) {
        return page(status, "Sign-in refused", "<p class=\"error\" role=\"alert\">" + escape(message) + "</p>", "'none'");
    }

    /** The operator's form for a local account, proven by the installation-owner token. */
    static MutableHttpResponse<String> accountForm(int status, String csrf, String error, String done) {
        String body = "<p class=\"note\">" + EMBEDDED_LABEL + "</p>"
                + "<p>Create a sign-in account. Prove you run this installation with its owner token: the file"
                + " <code>owner-token</code> in the data directory (mode 0600), shown by <code>cat</code>.</p>"
                + (error == null ? "" : "<p class=\"error\" role=\"alert\">" + escape(error) + "</p>")
                + (done == null ? "" : "<p role=\"status\">" + escape(done) + "</p>")
                + "<form method=\"post\" action=\"/signin/accounts\">" + hidden(Csrf.FIELD, csrf)
                + "<label for=\"ownerToken\">Owner token</label>"
                + "<input id=\"ownerToken\" name=\"ownerToken\" type=\"password\" autocomplete=\"off\" required>"
                + "<label for=\"email\">Email</label>"
                + "<input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"off\" required>"
                + "<label for=\"name\">Name</label><input id=\"name\" name=\"name\" required maxlength=\"200\">"
                + "<label for=\"password\">Password (at least " + Accounts.MIN_PASSWORD + " characters)</label>"
                + "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" required"
                + " minlength=\"" + Accounts.MIN_PASSWORD + "\">"
                + "<button type=\"submit\">Create account</button></form>";
        return page(status, "Create a sign-in account", body, "'self'");
    }

    static MutableHttpResponse<String> page(int status, String title, String body, String formAction) {
        String html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>" + escape(title) + "</title><style>" + STYLE + "</style></head><body><h1>"
                + escape(title) + "</h1>" + body + "</body></html>";
        return HttpResponse.<String>status(HttpStatus.valueOf(status)).contentType(MediaType.TEXT_HTML_TYPE)
                .header("Content-Security-Policy", "default-src 'none'; style-src " + STYLE_HASH + "; form-action "
                        + formAction + "; frame-ancestors 'none'; base-uri 'none'")
                .header("Cache-Control", "no-store")
                // not no-referrer: with it the browser posts the form with `Origin: null`, which Micronaut's guard
                // against drive-by localhost attacks refuses; same-origin still sends nothing to other sites
                .header("Referrer-Policy", "same-origin")
                .header("X-Frame-Options", "DENY")
                .header("X-Content-Type-Options", "nosniff")
                .body(html);
    }

    static String hidden(String name, String value) {
        return "<input type=\"hidden\" name=\"" + escape(name) + "\" value=\"" + escape(value) + "\">";
    }

    static String origin(URI u) {
        return u.getScheme() + "://" + u.getRawAuthority();
    }

    /** Text and attribute values of a page, escaped by commons-text rather than by hand. */
    static String escape(String s) {
        return StringEscapeUtils.escapeHtml4(s);
    }

    private static String sha256(String s) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

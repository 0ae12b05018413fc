package dev.stockade.api.signin;

import io.micronaut.http.MutableHttpResponse;

/** The pages of browser sign-in: the signed-in landing page with its sign-out button, and the outcomes. */
final class BrowserPages {
    private BrowserPages() {
    }

    /** A minimal landing page: who is signed in and the sign-out form (the admin pages come later). */
    static MutableHttpResponse<String> home(BrowserSessions.Session s, String csrf) {
        String who = s.name() == null || s.name().isBlank() ? s.email() : s.name() + " (" + s.email() + ")";
        String body = "<p>Signed in as <strong id=\"who\">" + SignInPages.escape(who == null ? "" : who)
                + "</strong>.</p>"
                + "<form method=\"post\" action=\"/signout\">" + SignInPages.hidden(Csrf.FIELD, csrf)
                + "<button id=\"signout\" type=\"submit\">Sign out</button></form>";
        return SignInPages.page(200, "Stockade", body, "'self'");
    }

    static MutableHttpResponse<String> signedOut() {
        return SignInPages.page(200, "Signed out", "<p>You are signed out. <a href=\"/\">Sign in again</a>.</p>",
                "'none'");
    }

    static MutableHttpResponse<String> problem(int status, String message) {
        return SignInPages.page(status, "Sign-in did not complete", "<p class=\"error\" role=\"alert\">"
                + SignInPages.escape(message) + "</p><p><a href=\"/\">Start again</a>.</p>", "'none'");
    }
}

package dev.stockade.api.signin;

import io.micronaut.http.MutableHttpResponse;

/** The pages of browser sign-in's outcomes: signed out, or a sign-in that did not complete. */
final class BrowserPages {
    private BrowserPages() {
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

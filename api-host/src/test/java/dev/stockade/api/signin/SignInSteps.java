package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The steps of signing in through the embedded provider, as a person with a browser and an OAuth client take them. */
public final class SignInSteps {
    private SignInSteps() {
    }

    /** The operator's account form, proven with the owner token. */
    public static void createAccount(FormBrowser browser, String ownerToken, String email, String name, String password) {
        HttpResponse<String> page = browser.get("/signin/accounts");
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        Map<String, String> form = new LinkedHashMap<>(FormBrowser.hiddenFields(page.body()));
        form.put("ownerToken", ownerToken);
        form.put("email", email);
        form.put("name", name);
        form.put("password", password);
        HttpResponse<String> made = browser.postForm("/signin/accounts", form);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
    }

    static String register(FormBrowser browser, String redirect) {
        HttpResponse<String> r = browser.postJson("/signin/register", Map.of("redirect_uris", List.of(redirect),
                "client_name", "test client", "token_endpoint_auth_method", "none"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return FormBrowser.json(r).path("client_id").asText();
    }

    static String authorizeUrl(String client, String redirect, String verifier, String method, String resource) {
        String challenge = method.equals("S256") ? FormBrowser.challenge(verifier) : verifier;
        return "/signin/authorize?response_type=code&client_id=" + enc(client) + "&redirect_uri=" + enc(redirect)
                + "&code_challenge=" + enc(challenge) + "&code_challenge_method=" + method + "&state=st-1"
                + (resource == null ? "" : "&resource=" + enc(resource));
    }

    /** Opens the login page, fills it in and returns the code the redirect carries. */
    static String code(FormBrowser browser, String client, String redirect, String verifier, String resource,
                       String email, String password) {
        HttpResponse<String> page = browser.get(authorizeUrl(client, redirect, verifier, "S256", resource));
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        Map<String, String> form = new LinkedHashMap<>(FormBrowser.hiddenFields(page.body()));
        form.put("email", email);
        form.put("password", password);
        HttpResponse<String> done = browser.postForm("/signin/authorize", form);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(303);
        String to = done.headers().firstValue("Location").orElseThrow();
        assertThat(to).startsWith(redirect);
        assertThat(FormBrowser.query(to, "state")).isEqualTo("st-1");
        assertThat(FormBrowser.query(to, "iss")).isEqualTo(browser.base.toString().replaceAll("/$", ""));
        return FormBrowser.query(to, "code");
    }

    static HttpResponse<String> exchange(FormBrowser browser, String client, String redirect, String code,
                                         String verifier) {
        return browser.postForm("/signin/token", Map.of("grant_type", "authorization_code", "code", code,
                "client_id", client, "redirect_uri", redirect, "code_verifier", verifier));
    }

    static JsonNode signIn(FormBrowser browser, String client, String redirect, String resource, String email,
                           String password) {
        String verifier = FormBrowser.verifier();
        String code = code(browser, client, redirect, verifier, resource, email, password);
        HttpResponse<String> r = exchange(browser, client, redirect, code, verifier);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Cache-Control")).contains("no-store");
        return FormBrowser.json(r);
    }

    static HttpResponse<String> refresh(FormBrowser browser, String client, String refreshToken) {
        return browser.postForm("/signin/token", Map.of("grant_type", "refresh_token", "refresh_token", refreshToken,
                "client_id", client));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}

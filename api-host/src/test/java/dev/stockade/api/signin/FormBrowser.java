package dev.stockade.api.signin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a browser does with the sign-in pages, over real HTTP: keeps cookies, reads a form's fields from the HTML and
 * posts them back, and does not follow redirects, so a test sees where the platform sends it. Also the OAuth client
 * side: registration, PKCE and the token endpoint.
 */
public final class FormBrowser {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern INPUT = Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\">");
    private final HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    final URI base;

    public FormBrowser(URI base) {
        this.base = base;
    }

    public HttpResponse<String> get(String pathOrUrl) {
        return send(HttpRequest.newBuilder(base.resolve(pathOrUrl)).GET());
    }

    /** A request with extra headers, through this browser's cookie store (an admin UI page's script calling the API). */
    HttpResponse<String> request(String method, String path, Map<String, String> headers, String jsonBody) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).method(method, jsonBody == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(jsonBody));
        headers.forEach(b::header);
        if (jsonBody != null) {
            b.header("Content-Type", "application/json");
        }
        return send(b);
    }

    /** A GET with a cookie set by hand (a stolen or replayed one), past this browser's own cookie store. */
    HttpResponse<String> getWithCookie(String path, String cookie) {
        try {
            return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build().send(HttpRequest
                    .newBuilder(base.resolve(path)).header("Cookie", cookie).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpResponse<String> postForm(String path, Map<String, String> fields) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type",
                "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(encode(fields))));
    }

    HttpResponse<String> postJson(String path, Object body) {
        try {
            return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The hidden fields of the page's form (the authorization request and the CSRF token). */
    public static Map<String, String> hiddenFields(String html) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = INPUT.matcher(html);
        while (m.find()) {
            out.put(unescape(m.group(1)), unescape(m.group(2)));
        }
        return out;
    }

    /** A query parameter of a URL (the code or error a redirect carries). */
    static String query(String url, String name) {
        String q = URI.create(url).getRawQuery();
        for (String pair : q == null ? new String[0] : q.split("&")) {
            int eq = pair.indexOf('=');
            if (pair.substring(0, eq).equals(name)) {
                return java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + r.body(), e);
        }
    }

    /** A PKCE verifier (RFC 7636: 43 characters of the unreserved alphabet). */
    static String verifier() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** S256 of a verifier, computed here independently of the platform's code. */
    static String challenge(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String encode(Map<String, String> fields) {
        StringJoiner j = new StringJoiner("&");
        fields.forEach((k, v) -> j.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        try {
            return client.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String unescape(String s) {
        return s.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&amp;", "&");
    }
}

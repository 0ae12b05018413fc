package dev.stockade.cli.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.cli.Stockade;
import dev.stockade.testing.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stockade login --url} through the browser, in-process against the running platform: the CLI prints the
 * sign-in address (no display here), the test fills in the embedded provider's login page as a browser would and
 * follows the redirects through {@code <public URL>/oauth/callback} to the CLI's loopback listener; the stored,
 * refreshable login then serves {@code whoami} and {@code orgs list}, renews itself once expired, and
 * {@code logout} revokes it at the platform.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserLoginTest {
    private static final String EMAIL = "alan@example.com";
    private static final String PASSWORD = "loopback all the way";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern HIDDEN = Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\">");
    private final HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    private Platform platform;

    @TempDir
    Path home;

    @BeforeAll
    void platformWithAnAccount() throws Exception {
        platform = Platform.shared();
        HttpResponse<String> page = get(platform.url.resolve("/signin/accounts").toString());
        Map<String, String> form = hidden(page.body());
        form.put("ownerToken", platform.ownerToken());
        form.put("email", EMAIL);
        form.put("name", "Alan");
        form.put("password", PASSWORD);
        HttpResponse<String> made = post(platform.url.resolve("/signin/accounts").toString(), form);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
    }

    @Test
    void signsInThroughTheBrowserRenewsAndRevokes() throws Exception {
        Path stored = home.resolve("credentials.json");
        Map<String, String> env = Map.of("HOME", home.toString(), "STOCKADE_CONFIG", stored.toString());
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> login = CompletableFuture.supplyAsync(() -> Stockade.run(
                java.io.InputStream.nullInputStream(), new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true), env, "login", "--url", platform.url.toString()));
        Await.until("the CLI to print the sign-in address", () -> err.toString().contains("Sign in at: "));
        String address = err.toString().lines().filter(l -> l.startsWith("Sign in at: ")).findFirst().orElseThrow()
                .substring("Sign in at: ".length());
        String base = platform.url.toString().replaceAll("/$", "");
        assertThat(address).startsWith(base + "/signin/authorize?").contains("code_challenge_method=S256")
                .contains("redirect_uri=" + URLEncoder.encode(base + "/oauth/callback", StandardCharsets.UTF_8));

        Map<String, String> form = hidden(get(address).body());
        form.put("email", EMAIL);
        form.put("password", PASSWORD);
        String toPlatform = post(base + "/signin/authorize", form).headers().firstValue("Location").orElseThrow();
        assertThat(toPlatform).startsWith(base + "/oauth/callback?");
        String toCli = get(toPlatform).headers().firstValue("Location").orElseThrow();
        assertThat(toCli).startsWith("http://127.0.0.1:").contains("/callback?");
        assertThat(get(toCli).body()).contains("Signed in");
        assertThat(login.get(60, TimeUnit.SECONDS)).as(err.toString()).isZero();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(stored))).isEqualTo("rw-------");
        JsonNode saved = JSON.readTree(stored.toFile());
        String firstRefresh = saved.path("oauth").path("refreshToken").asText();
        assertThat(firstRefresh).isNotBlank();
        assertThat(cli(env, "whoami", "--format", "json")).contains(EMAIL);
        cli(env, "orgs", "list");

        // the access token has run out: the next command renews it with the refresh token, which rotates
        ((ObjectNode) saved.path("oauth")).put("expiresAt", 0);
        Files.writeString(stored, JSON.writeValueAsString(saved));
        assertThat(cli(env, "whoami", "--format", "json")).contains(EMAIL);
        String renewed = JSON.readTree(stored.toFile()).path("oauth").path("refreshToken").asText();
        assertThat(renewed).isNotEqualTo(firstRefresh);

        cli(env, "logout");
        assertThat(stored).doesNotExist();
        HttpResponse<String> refused = post(base + "/signin/token", Map.of("grant_type", "refresh_token",
                "refresh_token", renewed, "client_id", saved.path("oauth").path("clientId").asText()));
        assertThat(JSON.readTree(refused.body()).path("error").asText()).isEqualTo("invalid_grant");
    }

    private static String cli(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Stockade.run(java.io.InputStream.nullInputStream(), new PrintWriter(out, true),
                new PrintWriter(err, true), env, args);
        assertThat(status).as(err.toString()).isZero();
        return out.toString();
    }

    private static Map<String, String> hidden(String html) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = HIDDEN.matcher(html);
        while (m.find()) {
            out.put(m.group(1), m.group(2).replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<")
                    .replace("&gt;", ">").replace("&amp;", "&"));
        }
        return out;
    }

    private HttpResponse<String> get(String url) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url, Map<String, String> fields) throws Exception {
        StringJoiner body = new StringJoiner("&");
        fields.forEach((k, v) -> body.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return browser.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    }
}

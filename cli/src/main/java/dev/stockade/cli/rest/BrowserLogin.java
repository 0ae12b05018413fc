package dev.stockade.cli.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code stockade login --url URL} without a token file: the loopback sign-in of the spec (0.31.0). The CLI
 * registers itself with redirect URI {@code <public URL>/oauth/callback}, listens on {@code 127.0.0.1} at a random
 * port named in {@code state}, opens the browser (or prints the address), and the platform's callback forwards the
 * browser's return to that port. The code is exchanged with the PKCE S256 verifier only this process holds.
 */
final class BrowserLogin {
    static final Duration WAIT = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** The REST API's resource (RFC 9728) and the authorization server's endpoints the CLI uses (RFC 8414). */
    record Endpoints(String resource, URI authorize, URI token, URI register, URI revoke) {
    }

    /** Signs in through the browser and returns what to store. */
    Credentials signIn(URI base, Map<String, String> env, PrintWriter tell) {
        Endpoints at = discover(base);
        String redirect = base.toString().replaceAll("/+$", "") + "/oauth/callback";
        String clientId = post(at.register(), "application/json", "{\"client_name\":\"stockade CLI\","
                + "\"redirect_uris\":[" + JSON.valueToTree(redirect) + "],\"token_endpoint_auth_method\":\"none\"}")
                .path("client_id").asText();
        String verifier = random();
        CompletableFuture<Map<String, String>> back = new CompletableFuture<>();
        HttpServer loopback = listen(back);
        try {
            String state = loopback.getAddress().getPort() + "~" + random();
            URI go = URI.create(at.authorize() + "?" + form(Map.of("response_type", "code", "client_id", clientId,
                    "redirect_uri", redirect, "code_challenge", challenge(verifier), "code_challenge_method", "S256",
                    "state", state, "resource", at.resource())));
            open(go, env, tell);
            Map<String, String> answer = back.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            if (!state.equals(answer.get("state"))) {
                throw Failure.usage("the sign-in came back with another state; run `stockade login` again");
            }
            if (answer.get("code") == null) {
                throw Failure.usage("the sign-in was refused: " + Text.safe(answer.getOrDefault("error", "no code")));
            }
            JsonNode tokens = post(at.token(), "application/x-www-form-urlencoded", form(Map.of("grant_type",
                    "authorization_code", "code", answer.get("code"), "client_id", clientId, "redirect_uri", redirect,
                    "code_verifier", verifier)));
            return stored(base, tokens, clientId, at);
        } catch (TimeoutException e) {
            throw Failure.usage("no sign-in within " + WAIT.toMinutes() + " minutes");
        } catch (ExecutionException e) {
            throw Failure.unexpected("the loopback listener failed: " + Text.safe(String.valueOf(e.getCause())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Failure.unexpected("interrupted while waiting for the sign-in");
        } finally {
            loopback.stop(0);
        }
    }

    /** A renewed login, when the stored access token has expired and a refresh token is kept. */
    Credentials refresh(Credentials c) {
        Credentials.Refreshable o = c.oauth();
        JsonNode tokens = post(o.tokenEndpoint(), "application/x-www-form-urlencoded", form(Map.of("grant_type",
                "refresh_token", "refresh_token", o.refreshToken(), "client_id", o.clientId())));
        return stored(URI.create(c.url()), tokens, o.clientId(), new Endpoints(null, null, o.tokenEndpoint(), null,
                o.revocationEndpoint()));
    }

    /** RFC 7009: ends the refresh token (and its access tokens' renewal) at the platform. */
    void revoke(Credentials.Refreshable o) {
        post(o.revocationEndpoint(), "application/x-www-form-urlencoded", form(Map.of("token", o.refreshToken(),
                "token_type_hint", "refresh_token")));
    }

    private Endpoints discover(URI base) {
        String root = base.toString().replaceAll("/+$", "");
        JsonNode resource = get(URI.create(root + "/.well-known/oauth-protected-resource/v1"));
        String server = resource.path("authorization_servers").path(0).asText("").replaceAll("/+$", "");
        JsonNode m = get(URI.create(server + "/.well-known/oauth-authorization-server"));
        if (!m.path("registration_endpoint").isTextual()) {
            throw Failure.usage("the identity provider offers no client registration; sign in with --token-file");
        }
        return new Endpoints(resource.path("resource").asText(), URI.create(m.path("authorization_endpoint").asText()),
                URI.create(m.path("token_endpoint").asText()), URI.create(m.path("registration_endpoint").asText()),
                URI.create(m.path("revocation_endpoint").asText()));
    }

    private static Credentials stored(URI base, JsonNode tokens, String clientId, Endpoints at) {
        long expires = Instant.now().getEpochSecond() + tokens.path("expires_in").asLong(0);
        return new Credentials(base.toString(), tokens.path("access_token").asText(), new Credentials.Refreshable(
                clientId, tokens.path("refresh_token").asText(), at.token(), at.revoke(), expires));
    }

    private static HttpServer listen(CompletableFuture<Map<String, String>> back) {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            s.createContext("/callback", exchange -> {
                Map<String, String> q = parse(exchange.getRequestURI().getRawQuery());
                byte[] page = ("<!doctype html><title>Stockade</title><p>" + (q.containsKey("code")
                        ? "Signed in. You can close this window and return to the terminal."
                        : "The sign-in did not complete; see the terminal.") + "</p>").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                exchange.getResponseHeaders().add("Content-Security-Policy", "default-src 'none'");
                exchange.sendResponseHeaders(200, page.length);
                exchange.getResponseBody().write(page);
                exchange.close();
                back.complete(q);
            });
            s.start();
            return s;
        } catch (IOException e) {
            throw Failure.unexpected("cannot listen on 127.0.0.1 for the sign-in: " + Text.safe(e.getMessage()));
        }
    }

    /** xdg-open when there is one and a display to use; otherwise the address is printed to open elsewhere. */
    private static void open(URI go, Map<String, String> env, PrintWriter tell) {
        tell.println("Sign in at: " + go);
        tell.flush();
        boolean display = env.containsKey("DISPLAY") || env.containsKey("WAYLAND_DISPLAY");
        if (display && Files.isExecutable(Path.of("/usr/bin/xdg-open"))) {
            try {
                new ProcessBuilder("/usr/bin/xdg-open", go.toString()).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            } catch (IOException e) {
                tell.println("(could not open a browser: open the address above yourself)");
            }
        }
    }

    private JsonNode get(URI uri) {
        return send(HttpRequest.newBuilder(uri).GET());
    }

    private JsonNode post(URI uri, String type, String body) {
        return send(HttpRequest.newBuilder(uri).header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private JsonNode send(HttpRequest.Builder b) {
        HttpRequest request = b.header("Accept", "application/json").timeout(Duration.ofSeconds(30)).build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
            if (r.statusCode() >= 300) {
                String why = body.path("error_description").asText(body.path("detail").asText(body.path("error")
                        .asText("")));
                throw Failure.usage(request.uri().getPath() + " answered " + r.statusCode() + ": " + Text.safe(why));
            }
            return body;
        } catch (IOException e) {
            throw Failure.usage("cannot reach " + request.uri().getHost() + ": " + Text.safe(String.valueOf(e)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Failure.unexpected("interrupted");
        }
    }

    static String challenge(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static String form(Map<String, String> fields) {
        StringJoiner j = new StringJoiner("&");
        fields.forEach((k, v) -> j.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }

    private static Map<String, String> parse(String query) {
        Map<String, String> out = new HashMap<>();
        for (String pair : query == null ? List.<String>of() : List.of(query.split("&"))) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}

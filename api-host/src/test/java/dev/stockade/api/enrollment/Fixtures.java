package dev.stockade.api.enrollment;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.support.TestDatabase;
import dev.stockade.testing.Await;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.LoggerFactory;

/** What the enrollment tests share: a browser, free ports, waiting, log capture and platforms started by hand. */
final class Fixtures {
    private Fixtures() {
    }

    /** A port free now, for a server whose public URL must be known before it starts. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path tempDir() {
        return dev.stockade.api.support.Scratch.directory("stockade-enrollment-test");
    }

    /** Waits (generously: the machine is shared) until the condition holds, failing with what was awaited. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, Await.LONG, condition);
    }

    /** A browser: keeps cookies and follows redirects, as a person's browser would through the hub and back. */
    static HttpClient browser() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    static HttpResponse<String> get(HttpClient client, URI uri) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> postForm(HttpClient client, URI uri, String field, String value)
            throws IOException, InterruptedException {
        String form = field + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
        return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Captures what a class logs (logback), to check the lines operators read. */
    static ListAppender<ILoggingEvent> captureLogs(Class<?> type) {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger(type)).addAppender(appender);
        return appender;
    }

    static boolean logged(ListAppender<ILoggingEvent> logs, String text) {
        synchronized (logs) { // AppenderBase appends under the appender's own lock
            return logs.list.stream().anyMatch(e -> e.getFormattedMessage().contains(text));
        }
    }

    /** Writes a secret the way a mounted Kubernetes secret looks: {@code <dataDir>/secrets/<name>/<key>}. */
    static void writeSecret(Path dataDir, String name, String key, String value) throws IOException {
        Path dir = Files.createDirectories(dataDir.resolve("secrets").resolve(name));
        Files.writeString(dir.resolve(key), value + "\n");
    }

    /** Hub values for a fleet registered at the hub, its token in the secret {@code fleet-token}. */
    static Map<String, String> hubValues(DevHub hub, Path dataDir, String publicUrl) throws Exception {
        HubClient.Fleet fleet = new HubClient(hub.url(), new ObjectMapper()).registerFleet(hub.operatorToken(), "tests", "stockade",
                publicUrl);
        writeSecret(dataDir, "fleet-token", "accessToken", fleet.accessToken());
        return Map.of("hub.url", hub.url().toString(), "hub.fleet-id", fleet.fleetId(),
                "hub.access-token-secret.name", "fleet-token", "config.public-url", publicUrl);
    }

    /** A platform started by hand (for restarts): its server on a random port, on the given database and data dir. */
    static EmbeddedServer startPlatform(String databaseUrl, Path dataDir, Map<String, String> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put("datasources.default.url", databaseUrl);
        p.put("datasources.default.username", TestDatabase.user());
        p.put("datasources.default.password", TestDatabase.password());
        p.put("micronaut.server.port", "-1");
        p.put("config.data-dir", dataDir.toString());
        p.put("hub.heartbeat-interval", "300ms");
        p.putAll(extra);
        return ApplicationContext.run(EmbeddedServer.class, p);
    }
}

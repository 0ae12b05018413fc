package dev.stockade.api.enrollment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** An installation with no hub values and the setup screen offered: the gate, the exempt routes, the setup code. */
@MicronautTest(transactional = false)
class NotEnrolledTest extends PlatformTest {
    private final DevHub hub = new DevHub(Fixtures.tempDir().resolve("hub.json"), 0);

    NotEnrolledTest() throws IOException {
    }

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("hub.dev", "false", "hub.url", hub.url().toString());
    }

    @Override
    protected boolean enrolledAtStart() {
        return false;
    }

    @AfterAll
    void stopHub() {
        hub.close();
    }

    @Test
    void everyGatedCallAnswers503FleetEnrollmentRequired() {
        String owner = ownerToken();
        String org = UUID.randomUUID().toString();
        for (Http.Response r : new Http.Response[] {
                http.get("/v1/auth/me", owner),
                http.get("/v1/orgs", owner),
                http.post("/v1/orgs", owner, Map.of("name", "acme")),
                http.get("/v1/orgs/" + org + "/halt", owner),
                http.post("/v1/orgs/" + org + "/halt", owner, Map.of()),
                http.get("/v1/openapi.json", null),
                http.get("/v1/auth/me", null),
                http.get("/no/such/route", null)}) {
            assertThat(problem(r, 503)).as(r.raw()).isEqualTo("fleet_enrollment_required");
            assertThat(r.text("type")).endsWith("/problems/fleet-enrollment-required");
        }
        // nothing was written while refused
        assertThat(http.get("/v1/installation", null).body().path("enrolled").asBoolean()).isFalse();
    }

    @Test
    void theExemptRoutesWork() {
        Http.Response health = http.get("/health", null);
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.text("status")).isEqualTo("ok");

        Http.Response installation = http.get("/v1/installation", null);
        assertThat(installation.status()).isEqualTo(200);
        assertThat(installation.body().path("enrolled").asBoolean()).isFalse();
        assertThat(installation.text("connection")).isIn("connecting", "unavailable");

        Http.Response setup = http.get("/setup", null);
        assertThat(setup.status()).isEqualTo(200);
        assertThat(setup.contentType()).startsWith("text/html");
        assertThat(setup.raw()).contains("<form method=\"post\" action=\"/setup\">").doesNotContain("<script")
                .doesNotContain("src=");

        // sign-in is exempt: the relay answers for itself (an unsupported grant), not the gate
        Http.Response relay = http.send("POST", "/oauth/token", null, "application/x-www-form-urlencoded",
                "grant_type=password");
        assertThat(problem(relay, 400)).isEqualTo("unsupported_grant_type");

        assertThat(problem(http.get("/v1/installation/activation/no-such-session", null), 404)).isEqualTo("not_found");
        assertThat(problem(http.get("/v1/installation/activation/..%2Fetc", null), 404)).isEqualTo("not_found");
    }

    @Test
    void theSetupCodeIsGeneratedOnceIntoItsSecretWithMode0600() throws IOException {
        Path file = dataDir.resolve("secrets/stockade-hub-setup/setupCode");
        String code = Files.readString(file).trim();
        assertThat(code).matches("[A-Za-z0-9_-]{16,}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        // kept across restarts: a second reading (as a restart does) finds the same code and matches it
        SetupCode again = server.getApplicationContext().createBean(SetupCode.class);
        assertThat(again.matches(code)).isTrue();
        assertThat(again.matches(code + "x")).isFalse();
        assertThat(Files.readString(file).trim()).isEqualTo(code);
    }

    @Test
    void aWrongCodeIsRefusedAfterOneSecondAndABadBodyAtOnce() {
        long start = System.nanoTime();
        Http.Response wrong = http.post("/v1/installation/activation", null, Map.of("setupCode", "not-the-code-at-all"));
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(problem(wrong, 403)).isEqualTo("setup_code_invalid");
        assertThat(elapsedMs).isGreaterThanOrEqualTo(1000);

        assertThat(problem(http.post("/v1/installation/activation", null, Map.of()), 400)).isNotBlank();
        assertThat(problem(http.post("/v1/installation/activation", null, Map.of("setupCode", "x", "more", 1)), 400))
                .isNotBlank();
        assertThat(http.get("/v1/installation", null).body().path("enrolled").asBoolean()).isFalse();
    }

    @Test
    void waitingWrongCodeAnswersAreBoundedAndTheBoundIsCheckedBeforeTheCode() throws Exception {
        SetupFlow flow = server.getApplicationContext().getBean(SetupFlow.class);
        String code = Files.readString(dataDir.resolve("secrets/stockade-hub-setup/setupCode")).trim();
        List<CompletableFuture<?>> waiting = new ArrayList<>();
        for (int i = 0; i < SetupFlow.MAX_DELAYED; i++) {
            waiting.add(flow.check("wrong-code-" + i, EnrollmentSessions.Kind.DEVICE));
        }
        // every slot holds a delayed refusal: even the right code is turned away, so the answer reveals nothing
        assertThatThrownBy(() -> flow.check(code, EnrollmentSessions.Kind.DEVICE))
                .isInstanceOfSatisfying(ApiProblem.class, p -> assertThat(p.code()).isEqualTo(ProblemCode.TOO_MANY_ATTEMPTS));
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        assertThat(flow.check(code, EnrollmentSessions.Kind.DEVICE).get(30, TimeUnit.SECONDS)).isPresent();
    }
}

package dev.stockade.api.kernel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad input of every kind gets a clear problem and changes nothing. */
@MicronautTest(transactional = false)
class BadInputTest extends PlatformTest {

    private int orgCount(String owner) {
        return http.get("/v1/orgs", owner).body().path("items").size();
    }

    @Test
    void malformedBodiesAreRefusedWithAPointerAndNothingChanges() {
        String owner = ownerToken();
        int before = orgCount(owner);
        record Case(String body, int status, String code, String pointer) {
        }
        Case[] cases = {
            new Case("{\"name\":", 400, "malformed_json", null),
            new Case("[1,2]", 400, "validation_failed", ""),
            new Case("{\"name\": 42}", 400, "validation_failed", "/name"),
            new Case("{\"name\": \"x\", \"admin\": true}", 400, "validation_failed", "/admin"),
            new Case("{}", 400, "validation_failed", "/name"),
            new Case("{\"name\": \"\"}", 400, "validation_failed", "/name"),
            new Case("{\"name\": \"a\\u0007b\"}", 400, "validation_failed", "/name"),
            new Case("{\"name\": \"" + "x".repeat(101) + "\"}", 400, "validation_failed", "/name"),
            new Case("{\"name\": \"x\", \"name\": \"y\"}", 400, "validation_failed", "/name"),
            new Case("{\"name\": \"x\"} {}", 400, "malformed_json", null),
        };
        for (Case c : cases) {
            Http.Response r = http.send("POST", "/v1/orgs", owner, "application/json", c.body);
            assertThat(r.status()).as(c.body + " -> " + r.raw()).isEqualTo(c.status);
            assertThat(problem(r, c.status)).as(c.body).isEqualTo(c.code);
            if (c.pointer != null && !c.pointer.isEmpty()) {
                assertThat(r.body().path("errors").toString()).as(c.body).contains("\"pointer\":\"" + c.pointer + "\"");
            }
            assertThat(r.raw()).doesNotContain("Exception").doesNotContain("at io.");
        }
        assertThat(orgCount(owner)).isEqualTo(before);
    }

    @Test
    void invalidUtf8AndWrongMediaTypesAreRefused() {
        String owner = ownerToken();
        byte[] invalid = {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertThat(problem(http.send("POST", "/v1/orgs", owner, "application/json", invalid), 400))
                .isEqualTo("malformed_json");
        assertThat(problem(http.send("POST", "/v1/orgs", owner, "text/plain", "name=x"), 415))
                .isEqualTo("unsupported_media_type");
        assertThat(problem(http.send("PUT", "/v1/orgs", owner, "application/json", "{}"), 405))
                .isEqualTo("method_not_allowed");
        assertThat(problem(http.get("/v1/no-such-route", owner), 404)).isEqualTo("not_found");
    }

    @Test
    void oversizedBodiesAreRefused() {
        String owner = ownerToken();
        int before = orgCount(owner);
        String big = "{\"name\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
        Http.Response r = http.send("POST", "/v1/orgs", owner, "application/json", big);
        assertThat(problem(r, 413)).isEqualTo("payload_too_large");
        assertThat(orgCount(owner)).isEqualTo(before);
    }

    @Test
    void pathIdsThatAreNotUuidsAreRefusedBeforeAnyLookup() {
        String owner = ownerToken();
        for (String id : new String[] {"..", "..%2F..%2Fetc", "%00", "1%27%20OR%201=1", "x".repeat(500)}) {
            Http.Response r = http.get("/v1/orgs/" + id, owner);
            assertThat(r.status()).as(id).isIn(400, 404);
            problem(r, r.status());
        }
    }

    @Test
    void aHeaderBlockOverTheLimitIs431WithAProblem() throws Exception {
        String huge = "x".repeat(40_000);
        try (Socket s = new Socket(server.getHost(), server.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(("GET /v1/installation HTTP/1.1\r\nHost: x\r\nX-Big: " + huge + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 431");
            assertThat(response).contains("application/problem+json").contains("headers_too_large");
        }
    }

    @Test
    void aBadBearerIsUnauthenticatedWithoutEchoingIt() {
        for (String token : new String[] {"stk_api_short", "not a token", "a.b.c", "stk_sbx_" + "A".repeat(40)}) {
            Http.Response r = http.get("/v1/auth/me", token);
            assertThat(problem(r, 401)).isEqualTo("unauthenticated");
            assertThat(r.raw()).doesNotContain(token);
        }
        Http.Response basic = http.send("GET", "/v1/auth/me", null, null, null);
        assertThat(problem(basic, 401)).isEqualTo("unauthenticated");
        assertThat(http.get("/v1/orgs", null).status()).isEqualTo(401);
    }
}

package dev.stockade.api.kernel.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one body reader (issue 25, items 1, 4 and 5): what the platform cannot store unchanged is refused at the edge
 * with a pointer, for bodies bound by Jackson and for documents the policy core reads alike; bytes that are not UTF-8
 * are {@code malformed_json} with their offset; a duplicate key is {@code validation_failed} with its pointer; and
 * nothing changes.
 */
@MicronautTest(transactional = false)
class BodyReaderTest extends PlatformTest {

    private int orgCount(String owner) {
        return http.get("/v1/orgs", owner).body().path("items").size();
    }

    private static List<String> pointers(Http.Response r) {
        List<String> out = new ArrayList<>();
        r.body().path("errors").forEach(e -> out.add(e.path("pointer").asText()));
        return out;
    }

    private static String code(Http.Response r) {
        return r.body().path("errors").path(0).path("code").asText();
    }

    /** Asserts a 400 {@code validation_failed} pointing at {@code pointer} with the error code {@code errorCode}. */
    private static void refused(Http.Response r, String pointer, String errorCode) {
        assertThat(problem(r, 400)).as(r.raw()).isEqualTo("validation_failed");
        assertThat(pointers(r)).as(r.raw()).containsExactly(pointer);
        assertThat(code(r)).as(r.raw()).isEqualTo(errorCode);
        assertThat(r.raw()).doesNotContain("Exception");
    }

    @Test
    void nulAndLoneSurrogatesAreRefusedWithAPointerOnCreateAndPatch() {
        String owner = ownerToken();
        int before = orgCount(owner);
        String json = "application/json";
        refused(http.send("POST", "/v1/orgs", owner, json, "{\"name\": \"a\\u0000b\"}"), "/name", "unstorable-text");
        refused(http.send("POST", "/v1/orgs", owner, json, "{\"name\": \"\\ud800x\"}"), "/name", "unstorable-text");
        refused(http.send("POST", "/v1/orgs", owner, json, "{\"name\": \"x\\udc00\"}"), "/name", "unstorable-text");
        assertThat(orgCount(owner)).isEqualTo(before);

        String org = createOrg(owner, "reader");
        String project = createProject(owner, org, "p");
        refused(http.send("POST", "/v1/orgs/" + org + "/projects", owner, json,
                "{\"name\": \"q\", \"description\": \"d\\u0000\"}"), "/description", "unstorable-text");
        refused(http.send("PATCH", "/v1/projects/" + project, owner, json, "{\"description\": \"\\u0000\"}"),
                "/description", "unstorable-text");
        refused(http.send("PATCH", "/v1/projects/" + project, owner, json, "{\"name\": \"\\udbff\"}"),
                "/name", "unstorable-text");
        Http.Response read = http.get("/v1/projects/" + project, owner);
        assertThat(read.text("name")).isEqualTo("p");
        assertThat(read.text("description")).isEmpty();
    }

    @Test
    void aPairedSurrogateIsStoredAndReadBackUnchanged() {
        String owner = ownerToken();
        Http.Response r = http.send("POST", "/v1/orgs", owner, "application/json", "{\"name\": \"grin \\ud83d\\ude00\"}");
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        assertThat(http.get("/v1/orgs/" + r.text("id"), owner).text("name")).isEqualTo("grin \uD83D\uDE00");
    }

    @Test
    void timesOutsideTheStorableRangeOrFinerThanAMicrosecondAreRefused() {
        String owner = ownerToken();
        String org = createOrg(owner, "times");
        String path = "/v1/orgs/" + org + "/api-tokens";
        for (String t : new String[] {"+999999999-12-31T23:59:59Z", "-000001-01-01T00:00:00Z", "0000-12-31T23:59:59Z",
            "+10000-01-01T00:00:00Z", "2030-01-01T00:00:00.123456789Z"}) {
            refused(http.send("POST", path, owner, "application/json",
                    "{\"name\": \"t\", \"expiresAt\": \"" + t + "\"}"), "/expiresAt", "out-of-range");
        }
        Http.Response ok = http.send("POST", path, owner, "application/json",
                "{\"name\": \"t\", \"expiresAt\": \"9999-12-31T23:59:59.999999Z\"}");
        assertThat(ok.status()).as(ok.raw()).isEqualTo(201);
        assertThat(ok.text("expiresAt")).isEqualTo("9999-12-31T23:59:59.999999Z");
        assertThat(problem(http.get("/v1/orgs/" + org + "/audit-trail?from=%2B999999999-12-31T23:59:59Z", owner), 400))
                .isEqualTo("invalid_parameter");
    }

    @Test
    void aDuplicateKeyIsValidationFailedWithItsPointerAndTextAfterTheValueIsMalformed() {
        String owner = ownerToken();
        int before = orgCount(owner);
        refused(http.send("POST", "/v1/orgs", owner, "application/json", "{\"name\": \"x\", \"name\": \"y\"}"),
                "/name", "duplicate-key");
        String org = createOrg(owner, "dups");
        before++;
        refused(http.send("POST", "/v1/orgs/" + org + "/projects", owner, "application/json",
                "{\"description\": \"a\", \"name\": \"n\", \"description\": \"b\"}"), "/description", "duplicate-key");
        for (String body : new String[] {"{\"name\": \"x\"} {}", "{\"name\": \"x\"}{\"name\": \"y\"}",
            "{\"name\": \"x\"} 1", "{\"name\": \"x\"} xyz"}) {
            assertThat(problem(http.send("POST", "/v1/orgs", owner, "application/json", body), 400)).as(body)
                    .isEqualTo("malformed_json");
        }
        assertThat(orgCount(owner)).isEqualTo(before);
    }

    @Test
    void invalidUtf8IsMalformedJsonNamingTheByteOffsetOnEveryKindOfBody() {
        String owner = ownerToken();
        String org = createOrg(owner, "utf8");
        int before = orgCount(owner);
        byte[][] bad = {{(byte) 0xC3, 0x28}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}};
        for (byte[] b : bad) {
            Http.Response r = http.send("POST", "/v1/orgs", owner, "application/json", bytes("{\"name\":\"", b, "\"}"));
            assertThat(problem(r, 400)).as(r.raw()).isEqualTo("malformed_json");
            assertThat(r.text("detail")).isEqualTo("the body is not valid UTF-8 at byte offset 9");
        }
        Http.Response truncated = http.send("POST", "/v1/orgs", owner, "application/json",
                bytes("{\"name\":\"x", new byte[] {(byte) 0xE2, (byte) 0x82}, ""));
        assertThat(truncated.text("detail")).isEqualTo("the body is not valid UTF-8 at byte offset 10");
        assertThat(orgCount(owner)).isEqualTo(before);

        String policies = "/v1/orgs/" + org + "/policies";
        Http.Response json = http.send("POST", policies, owner, "application/json",
                bytes("{\"name\": \"p\", \"description\": \"", new byte[] {(byte) 0xC3, 0x28}, "\"}"));
        assertThat(problem(json, 400)).isEqualTo("malformed_json");
        assertThat(json.text("detail")).isEqualTo("the body is not valid UTF-8 at byte offset 30");
        Http.Response yaml = http.send("POST", policies, owner, "application/yaml",
                bytes("name: p\ndescription: ", new byte[] {(byte) 0xE9}, "t\n"));
        assertThat(problem(yaml, 400)).isEqualTo("malformed_json");
        assertThat(yaml.text("detail")).isEqualTo("the body is not valid UTF-8 at byte offset 21");
        assertThat(http.get(policies, owner).body().path("items")).isEmpty();

        assertThat(problem(http.send("POST", "/v1/orgs", owner, "application/json; charset=iso-8859-1",
                "{\"name\": \"x\"}"), 415)).isEqualTo("unsupported_media_type");
        assertThat(orgCount(owner)).isEqualTo(before);
    }

    @Test
    void policyDocumentsAreHeldToTheSameTextRuleInJsonAndYaml() {
        String owner = ownerToken();
        String org = createOrg(owner, "docs");
        String policies = "/v1/orgs/" + org + "/policies";
        refused(http.send("POST", policies, owner, "application/json",
                "{\"name\": \"p\", \"description\": \"a\\u0000b\"}"), "/description", "unstorable-text");
        refused(http.send("POST", policies, owner, "application/yaml", "name: \"p\\0\"\n"), "/name", "unstorable-text");
        refused(http.send("POST", policies, owner, "application/json",
                "{\"name\": \"p\", \"allowedDomains\": [{\"pattern\": \"a.com\", \"verdict\": \"allow\","
                        + " \"description\": \"\\ud800\"}]}"), "/allowedDomains/0/description", "unstorable-text");
        assertThat(http.get(policies, owner).body().path("items")).isEmpty();

        Http.Response created = http.send("POST", policies, owner, "application/yaml", "name: p\n");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        refused(http.send("PATCH", policies + "/" + created.text("id"), owner, "application/json",
                "{\"description\": \"\\udfff\"}"), "/description", "unstorable-text");
        JsonNode stored = http.get(policies + "/" + created.text("id"), owner).body().path("policy");
        assertThat(stored.has("description")).isFalse();
    }

    private static byte[] bytes(String head, byte[] middle, String tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(middle);
        out.writeBytes(tail.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}

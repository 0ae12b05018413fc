package dev.stockade.api.kernel.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.parser.OpenAPIV3Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.impl.Constraint;

/**
 * No input gives a 500 (issue 25, item 6): generated bodies for every route that takes one, read from the served
 * OpenAPI document, answer a documented success or a 4xx problem, and the platform is healthy afterwards. The bound
 * is {@value #EXAMPLES} requests with a fixed seed, so a failure is reproducible and the run takes seconds.
 */
@MicronautTest(transactional = false)
class NoServerErrorFromInputTest extends PlatformTest {
    private static final int EXAMPLES = 400;
    private static final long SEED = 25_2026L;

    /** One route that takes a body, with its path's variables filled with real ids (or unknown ones). */
    record Route(String method, String path, String contentType, Schema<?> schema, Operation operation) {
        @Override
        public String toString() {
            return method + " " + path + " (" + contentType + ")";
        }
    }

    /** A request to send: the route and the body's bytes. */
    record Sent(Route route, byte[] body) {
        @Override
        public String toString() {
            return route + " " + new String(body, 0, Math.min(body.length, 300), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** The embedded sign-in's OAuth endpoints: their refusals are OAuth error objects, not problem details. */
    private static final java.util.Set<String> OAUTH_ENDPOINTS = java.util.Set.of("/signin/token", "/signin/register",
            "/signin/revoke");
    /** The sign-in forms a browser posts: their refusals are pages for the person, not problem details. */
    private static final java.util.Set<String> BROWSER_FORMS = java.util.Set.of("/signin/authorize", "/signin/accounts",
            "/signout");

    @Test
    void generatedBodiesOnEveryRouteAnswerAProblemOrADocumentedSuccessNeverA500() {
        String owner = ownerToken();
        String org = createOrg(owner, "fuzz");
        String project = createProject(owner, org, "fuzz");
        OpenAPI doc = new OpenAPIV3Parser().readContents(http.get("/v1/openapi.json", null).raw()).getOpenAPI();
        List<Route> routes = routes(doc, Map.of("orgId", org, "projectId", project));
        assertThat(routes).as("routes that take a body").hasSizeGreaterThan(20);

        Gen<Sent> requests = random -> {
            Route r = routes.get((int) random.next(Constraint.between(0, routes.size() - 1)));
            return new Sent(r, new HostileBodies(doc, random).body(r.schema()));
        };
        qt().withFixedSeed(SEED).withExamples(EXAMPLES).withShrinkCycles(0).forAll(requests)
                .checkAssert(sent -> answered(sent, owner));

        assertThat(http.get("/health", null).status()).isEqualTo(200);
        Http.Response after = http.post("/v1/orgs", owner, Map.of("name", "after the storm"));
        assertThat(after.status()).as(after.raw()).isEqualTo(201);
        assertThat(http.get("/v1/orgs/" + after.text("id"), owner).text("name")).isEqualTo("after the storm");
    }

    private void answered(Sent sent, String owner) {
        Route r = sent.route();
        Http.Response answer = http.send(r.method(), r.path(), owner, r.contentType(), sent.body());
        assertThat(answer.status()).as(sent + " -> " + answer.raw()).isLessThan(500);
        if (answer.status() >= 400 && r.path().endsWith("/mcp") && answer.body().has("jsonrpc")) {
            // the MCP endpoint answers in its own protocol: a JSON-RPC error object (docs/mcp.md)
            assertThat(answer.body().path("error").path("code").isInt()).as(sent + " -> " + answer.raw()).isTrue();
        } else if (answer.status() >= 400 && OAUTH_ENDPOINTS.contains(r.path())
                && !answer.contentType().startsWith("application/problem+json")) {
            // an OAuth endpoint answers in OAuth's error format, which OAuth clients read (RFC 6749 5.2, RFC 7591
            // 3.2.2); a body the kernel refuses before the endpoint reads it (not UTF-8, too large) is a problem
            assertThat(answer.body().path("error").isTextual()).as(sent + " -> " + answer.raw()).isTrue();
        } else if (answer.status() >= 400 && BROWSER_FORMS.contains(r.path())
                && answer.contentType().startsWith("text/html")) {
            // a form a person's browser posts is answered with a page that says what was wrong (docs/signin.md);
            // a body the kernel refuses before the form is read (not UTF-8, too large) is a problem as anywhere
            assertThat(answer.raw()).as(sent + " -> " + answer.raw()).contains("role=\"alert\"");
        } else if (answer.status() >= 400) {
            assertThat(problem(answer, answer.status())).as(sent + " -> " + answer.raw()).isNotBlank();
        } else {
            assertThat(r.operation().getResponses()).as(sent + " -> " + answer.status())
                    .containsKey(String.valueOf(answer.status()));
        }
    }

    /** Every documented operation with a request body, its path variables bound. */
    private static List<Route> routes(OpenAPI doc, Map<String, String> ids) {
        List<Route> out = new ArrayList<>();
        for (Map.Entry<String, PathItem> p : doc.getPaths().entrySet()) {
            for (Map.Entry<PathItem.HttpMethod, Operation> op : p.getValue().readOperationsMap().entrySet()) {
                Content content = op.getValue().getRequestBody() == null ? null
                        : op.getValue().getRequestBody().getContent();
                if (content == null || content.isEmpty()) {
                    continue;
                }
                String path = bind(p.getKey(), ids);
                for (Map.Entry<String, io.swagger.v3.oas.models.media.MediaType> media : content.entrySet()) {
                    String type = media.getKey().equals("*/*") ? "application/json" : media.getKey();
                    out.add(new Route(op.getKey().name(), path, type, media.getValue().getSchema(), op.getValue()));
                    if (type.equals("application/json") && path.contains("/policies")) {
                        out.add(new Route(op.getKey().name(), path, "application/yaml", media.getValue().getSchema(),
                                op.getValue()));
                    }
                }
            }
        }
        return out;
    }

    /** The org and project variables get real ids; any other id an unknown UUID, so the route runs to its lookup. */
    private static String bind(String template, Map<String, String> ids) {
        List<String> parts = new ArrayList<>();
        for (String part : template.split("/", -1)) {
            if (part.startsWith("{") && part.endsWith("}")) {
                String name = part.substring(1, part.length() - 1);
                part = ids.containsKey(name) ? ids.get(name) : name.endsWith("Id") ? UUID.randomUUID().toString()
                        : name.equals("revision") ? "1" : "x";
            }
            parts.add(part);
        }
        return String.join("/", parts);
    }
}

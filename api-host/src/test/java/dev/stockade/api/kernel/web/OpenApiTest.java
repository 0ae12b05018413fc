package dev.stockade.api.kernel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.http.HttpMethod;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteInfo;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/openapi.json} is a valid OpenAPI 3 document of exactly the routes this build serves, and every JSON
 * answer in it has a schema that names its fields (what generated clients, the CLI and the UI are built from).
 */
@MicronautTest(transactional = false)
class OpenApiTest extends PlatformTest {
    /** Routes that describe the API rather than belong to it. */
    // the document itself and the problem pages (the exec WebSocket is documented as its upgrading GET, merged from
    // src/main/openapi/exec.yml; its frames are in docs/platform.md, "Interactive exec")
    private static final Set<String> UNDOCUMENTED = Set.of("/v1/openapi.json", "/problems/{slug}");

    /**
     * Routes whose 2xx answer is not a JSON document the platform shapes, each with why. (The exec WebSocket's
     * upgrading GET answers 101, not 2xx, so it needs no entry.)
     */
    private static final Map<String, String> NOT_JSON_DOCUMENTS = Map.ofEntries(
            Map.entry("GET /mcp", "a server-sent event stream of MCP notifications"),
            Map.entry("GET /projects/{projectId}/mcp", "a server-sent event stream of MCP notifications"),
            Map.entry("GET /v1/egress/feed", "a server-sent event stream of compiled policy sets"),
            Map.entry("POST /oauth/token", "the identity provider's token response, relayed as it came (RFC 6749)"),
            Map.entry("GET /setup", "an HTML page for a person's browser"),
            Map.entry("GET /setup/callback", "an HTML page for a person's browser"),
            Map.entry("GET /", "a redirect to the admin UI, or to sign-in (docs/signin.md)"),
            Map.entry("GET /ui", "the admin UI's page (HTML) or a redirect to sign-in"),
            Map.entry("GET /ui/{path}", "the admin UI's page (HTML), one of its assets, or a redirect to sign-in"),
            Map.entry("GET /oauth/callback", "an HTML page or a redirect to the CLI's loopback listener"),
            Map.entry("GET /signin/accounts", "an HTML page for the operator's browser"),
            Map.entry("POST /signin/accounts", "an HTML page for the operator's browser"),
            Map.entry("GET /signin/authorize", "the sign-in page (HTML) or a redirect to the client"),
            Map.entry("POST /signin/authorize", "the sign-in page (HTML) or a redirect to the client"),
            Map.entry("GET /signin/callback", "a redirect or an HTML page for a person's browser"),
            Map.entry("POST /signout", "a redirect or an HTML page for a person's browser"),
            Map.entry("GET /signin/jwks", "a JWK Set, shaped by RFC 7517"),
            Map.entry("POST /signin/register", "client information, shaped by RFC 7591"),
            Map.entry("POST /signin/revoke", "an empty answer, as RFC 7009 says"),
            Map.entry("POST /signin/token", "a token response, shaped by RFC 6749"),
            Map.entry("GET /v1/oauth/connector-callback", "a line of text for a person's browser"),
            Map.entry("GET /v1/clusters/{clusterId}/proxy/{path}", "the Kubernetes API's answer, relayed as it came"),
            Map.entry("PUT /v1/clusters/{clusterId}/proxy/{path}", "the Kubernetes API's answer, relayed as it came"),
            Map.entry("POST /v1/clusters/{clusterId}/proxy/{path}", "the Kubernetes API's answer, relayed as it came"),
            Map.entry("PATCH /v1/clusters/{clusterId}/proxy/{path}", "the Kubernetes API's answer, relayed as it came"),
            Map.entry("DELETE /v1/clusters/{clusterId}/proxy/{path}", "the Kubernetes API's answer, relayed as it came"),
            Map.entry("POST /v1/projects/{projectId}/llm/{path}", "the model provider's answer in its own wire format"
                    + " (JSON, server-sent events or AWS event-stream frames), relayed as it comes"),
            Map.entry("POST /v1/llm/{path}", "the model provider's answer in its own wire format, relayed as it comes"));

    /** Framework and Jackson types the generator can describe but which say nothing about an answer's fields. */
    private static final List<String> FRAMEWORK_COMPONENTS = List.of("HttpResponse", "MutableHttpResponse",
            "HttpMessage", "Event_", "JsonNode", "ObjectNode", "BaseJsonNode", "ContainerNode");

    @Inject
    Router router;

    @Test
    void everyJsonAnswerHasASchemaWithFields() {
        OpenAPI doc = document();
        assertThat(lacking(doc)).as("2xx answers without a schema that names their fields").isEmpty();
        List<String> routes = new ArrayList<>();
        doc.getPaths().forEach((path, item) -> item.readOperationsMap().keySet().forEach(m -> routes.add(m + " "
                + path)));
        assertThat(routes).as("the exemptions name documented routes").containsAll(NOT_JSON_DOCUMENTS.keySet());
    }

    @Test
    void theWalkNamesAMapAnUntypedListAndAFrameworkTypeButNotARecord() {
        OpenAPI doc = new OpenAPIV3Parser().readContents("""
                {"openapi": "3.0.1", "info": {"title": "t", "version": "1"}, "paths": {
                  "/map": {"get": {"responses": {"200": {"description": "a map", "content": {"application/json":
                    {"schema": {"type": "object", "additionalProperties": {"type": "object"}}}}}}}},
                  "/page": {"get": {"responses": {"200": {"description": "a generic page", "content":
                    {"application/json": {"schema": {"$ref": "#/components/schemas/Page_T_"}}}}}}},
                  "/future": {"post": {"responses": {"200": {"description": "a framework type", "content":
                    {"application/json": {"schema": {"$ref": "#/components/schemas/HttpResponse_Object_"}}}}}}},
                  "/record": {"get": {"responses": {"200": {"description": "a record", "content":
                    {"application/json": {"schema": {"$ref": "#/components/schemas/Things"}}}}}}},
                  "/gone": {"delete": {"responses": {"204": {"description": "no body"}}}}},
                 "components": {"schemas": {
                  "Page_T_": {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "object"}}}},
                  "HttpResponse_Object_": {"type": "object", "properties": {"status": {"type": "string"}}},
                  "Thing": {"type": "object", "properties": {"name": {"type": "string"}}},
                  "Things": {"type": "object", "properties": {"items": {"type": "array",
                    "items": {"$ref": "#/components/schemas/Thing"}}}}}}}
                """).getOpenAPI();
        assertThat(lacking(doc)).containsExactlyInAnyOrder("GET /map 200", "GET /page 200", "POST /future 200");
    }

    /** The 2xx answers of {@code doc} (outside the exemptions) whose schema names no fields. */
    private static List<String> lacking(OpenAPI doc) {
        Map<String, Schema> components = doc.getComponents() == null ? Map.of() : doc.getComponents().getSchemas();
        List<String> lacking = new ArrayList<>();
        doc.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, op) -> {
            String route = method + " " + path;
            if (NOT_JSON_DOCUMENTS.containsKey(route)) {
                return;
            }
            op.getResponses().forEach((code, response) -> {
                if (code.startsWith("2") && !described(response, components)) {
                    lacking.add(route + " " + code);
                }
            });
        }));
        return lacking;
    }

    /** No content is an empty body (204, a 202, a delete's 200); content must be described in every media type. */
    private static boolean described(ApiResponse response, Map<String, Schema> components) {
        Content content = response.getContent();
        return content == null || content.values().stream().allMatch(m -> names(m.getSchema(), components, 0));
    }

    /**
     * A schema names fields when it has properties, or $refs or composes one that has; a list answer's
     * {@code items} must name its element's fields too.
     */
    private static boolean names(Schema<?> schema, Map<String, Schema> components, int depth) {
        if (schema == null || depth > 8) {
            return false;
        }
        if (schema.get$ref() != null) {
            String name = schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
            return FRAMEWORK_COMPONENTS.stream().noneMatch(name::startsWith)
                    && names(components.get(name), components, depth + 1);
        }
        if (schema.getAllOf() != null && schema.getAllOf().stream().anyMatch(s -> names(s, components, depth + 1))) {
            return true;
        }
        Map<String, Schema> properties = schema.getProperties();
        if (properties == null || properties.isEmpty()) {
            return false;
        }
        Schema<?> items = properties.get("items");
        return items == null || items.getItems() == null || names(items.getItems(), components, depth + 1);
    }

    private OpenAPI document() {
        Http.Response r = http.get("/v1/openapi.json", null);
        assertThat(r.status()).isEqualTo(200);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(r.raw());
        assertThat(parsed.getMessages()).isEmpty();
        return parsed.getOpenAPI();
    }

    @Test
    void theDocumentValidatesAndListsEveryRoute() {
        OpenAPI doc = document();
        assertThat(doc.getOpenapi()).startsWith("3.");
        List<String> missing = new ArrayList<>();
        for (UriRouteInfo<?, ?> route : router.uriRoutes().toList()) {
            HttpMethod method = route.getHttpMethod();
            // OpenAPI has no patterns in paths: a variable with a pattern (the cluster proxy's `{path:.+}`) is `{path}`
            String path = route.getUriMatchTemplate().toString().replaceAll("\\{\\?[^}]*}", "")
                    .replaceAll("\\{([^}:]+):[^}]*}", "{$1}");
            if (method == HttpMethod.HEAD || method == HttpMethod.OPTIONS || UNDOCUMENTED.contains(path)) {
                continue;
            }
            PathItem item = doc.getPaths().get(path);
            if (item == null || item.readOperationsMap().keySet().stream()
                    .noneMatch(m -> m.name().equals(method.name().toUpperCase(Locale.ROOT)))) {
                missing.add(method + " " + path);
            }
        }
        assertThat(missing).as("routes missing from the OpenAPI document").isEmpty();
        // and nothing is documented that is not served
        int served = (int) router.uriRoutes().filter(x -> x.getHttpMethod() != HttpMethod.HEAD).count();
        long documented = doc.getPaths().values().stream().mapToLong(p -> p.readOperations().size()).sum();
        assertThat(documented).isLessThanOrEqualTo(served);
    }
}

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
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code GET /v1/openapi.json} is a valid OpenAPI 3 document of exactly the routes this build serves. */
@MicronautTest(transactional = false)
class OpenApiTest extends PlatformTest {
    /** Routes that describe the API rather than belong to it. */
    // the document itself and the problem pages (the exec WebSocket is documented as its upgrading GET, merged from
    // src/main/openapi/exec.yml; its frames are in docs/platform.md, "Interactive exec")
    private static final Set<String> UNDOCUMENTED = Set.of("/v1/openapi.json", "/problems/{slug}");

    @Inject
    Router router;

    @Test
    void theDocumentValidatesAndListsEveryRoute() {
        Http.Response r = http.get("/v1/openapi.json", null);
        assertThat(r.status()).isEqualTo(200);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(r.raw());
        assertThat(parsed.getMessages()).isEmpty();
        OpenAPI doc = parsed.getOpenAPI();
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

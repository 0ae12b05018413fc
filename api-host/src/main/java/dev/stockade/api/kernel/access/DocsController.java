package dev.stockade.api.kernel.access;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Text;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/** {@code GET /v1/openapi.json} (generated at build time from the controllers) and the problem type pages. */
@Controller
final class DocsController {
    private final byte[] openapi;

    DocsController() throws IOException {
        try (InputStream in = DocsController.class.getResourceAsStream("/META-INF/swagger/stockade-platform.json")) {
            openapi = in == null ? null : in.readAllBytes();
        }
    }

    @Get("/v1/openapi.json")
    @Access(Action.OPENAPI_READ)
    @Hidden
    HttpResponse<byte[]> openapi() {
        if (openapi == null) {
            throw new ApiProblem(ProblemCode.NOT_FOUND, "this build carries no OpenAPI document");
        }
        return HttpResponse.ok(openapi).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    /** What a problem type is: its slug, title, status, code and where it is documented. */
    @Introspected
    record ProblemType(String type, String title, int status, String code, String documentation) {
    }

    /** The page a problem's {@code type} URI names: its status, title and code. */
    @Get("/problems/{slug}")
    @Access(Action.PROBLEM_DOCS)
    @Hidden
    ProblemType problem(String slug) {
        for (ProblemCode c : ProblemCode.values()) {
            if (c.slug().equals(slug.toLowerCase(Locale.ROOT))) {
                return new ProblemType(slug, c.title(), c.status().getCode(), c.code(),
                        "docs/api-problems.md#" + c.slug());
            }
        }
        throw ApiProblem.notFound("problem type `" + Text.clip(slug) + "`");
    }
}

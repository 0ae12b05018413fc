package dev.stockade.api.web;

import dev.stockade.api.config.PlatformConfig;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds RFC 9457 problem details bodies: the only place a problem response is made. */
@Singleton
public final class Problems {
    public static final MediaType PROBLEM_JSON = MediaType.of("application/problem+json");

    private final String base;

    public Problems(PlatformConfig config) {
        this.base = config.problemBase();
    }

    /** The body of a problem: {@code type}, {@code title}, {@code status}, {@code detail}, {@code code}, {@code errors}. */
    public Map<String, Object> body(ProblemCode code, String detail, List<FieldError> errors) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", base + "/" + code.slug());
        body.put("title", code.title());
        body.put("status", code.status().getCode());
        body.put("detail", detail);
        body.put("code", code.code());
        if (!errors.isEmpty()) {
            body.put("errors", errors);
        }
        return body;
    }

    public MutableHttpResponse<Map<String, Object>> response(ProblemCode code, String detail) {
        return response(code, detail, List.of());
    }

    public MutableHttpResponse<Map<String, Object>> response(ProblemCode code, String detail, List<FieldError> errors) {
        return HttpResponse.<Map<String, Object>>status(code.status())
                .contentType(PROBLEM_JSON)
                .body(body(code, detail, errors));
    }

    public MutableHttpResponse<Map<String, Object>> response(ApiProblem problem) {
        return response(problem.code(), problem.detail(), problem.errors());
    }
}

package dev.stockade.api.kernel.web;

import dev.stockade.api.kernel.config.PlatformConfig;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.util.List;

/** Builds RFC 9457 problem details bodies: the only place a problem response is made. */
@Singleton
public final class Problems {
    public static final MediaType PROBLEM_JSON = MediaType.of("application/problem+json");

    private final String base;

    public Problems(PlatformConfig config) {
        this.base = config.problemBase();
    }

    /** The body of a problem: {@code type}, {@code title}, {@code status}, {@code detail}, {@code code}, {@code errors}. */
    public ProblemBody body(ProblemCode code, String detail, List<FieldError> errors) {
        return new ProblemBody(base + "/" + code.slug(), code.title(), code.status().getCode(), detail, code.code(),
                errors.isEmpty() ? null : List.copyOf(errors));
    }

    /** The body of a thrown problem. */
    public ProblemBody body(ApiProblem problem) {
        return body(problem.code(), problem.detail(), problem.errors());
    }

    public MutableHttpResponse<ProblemBody> response(ProblemCode code, String detail) {
        return response(code, detail, List.of());
    }

    public MutableHttpResponse<ProblemBody> response(ProblemCode code, String detail, List<FieldError> errors) {
        return HttpResponse.<ProblemBody>status(code.status())
                .contentType(PROBLEM_JSON)
                .body(body(code, detail, errors));
    }

    public MutableHttpResponse<ProblemBody> response(ApiProblem problem) {
        return response(problem.code(), problem.detail(), problem.errors());
    }
}

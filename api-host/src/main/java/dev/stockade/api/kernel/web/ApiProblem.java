package dev.stockade.api.kernel.web;

import java.util.List;

/**
 * A failure the platform answers with problem details. Thrown by services; the one error path turns it into an
 * {@code application/problem+json} response. The detail is written for the caller and never carries a secret.
 */
public final class ApiProblem extends RuntimeException {
    private final ProblemCode code;
    private final String detail;
    private final List<FieldError> errors;

    public ApiProblem(ProblemCode code, String detail) {
        this(code, detail, List.of());
    }

    public ApiProblem(ProblemCode code, String detail, List<FieldError> errors) {
        super(code.code() + ": " + detail, null, false, false);
        this.code = code;
        this.detail = detail;
        this.errors = List.copyOf(errors);
    }

    public ProblemCode code() {
        return code;
    }

    public String detail() {
        return detail;
    }

    public List<FieldError> errors() {
        return errors;
    }

    public static ApiProblem notFound(String what) {
        return new ApiProblem(ProblemCode.NOT_FOUND, what + " not found");
    }

    public static ApiProblem invalid(String pointer, String code, String detail) {
        return new ApiProblem(ProblemCode.VALIDATION_FAILED, detail, List.of(new FieldError(pointer, code, detail)));
    }
}

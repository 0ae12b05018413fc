package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.micronaut.context.annotation.Primary;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;
import jakarta.validation.ConstraintViolationException;
import java.sql.SQLException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one error path for failures the framework raises (no route, wrong method or media type, unreadable body,
 * failed bean validation, a unique value taken by a concurrent write, an unexpected exception): each becomes problem
 * details. An unexpected exception is logged
 * with its class only and answered with a fixed detail, so no exception message (which may quote input) leaks.
 */
@Primary
@Singleton
record ProblemErrorProcessor(Problems problems) implements ErrorResponseProcessor<ProblemBody> {
    private static final Logger LOG = LoggerFactory.getLogger(ProblemErrorProcessor.class);

    @Override
    public MutableHttpResponse<ProblemBody> processResponse(ErrorContext context, MutableHttpResponse<?> base) {
        Throwable cause = context.getRootCause().orElse(null);
        ApiProblem problem = translate(base.code(), cause);
        MutableHttpResponse<ProblemBody> response = problems.response(problem);
        base.getHeaders().forEach((name, values) -> {
            if (name.equalsIgnoreCase("Allow")) {
                values.forEach(v -> response.header(name, v));
            }
        });
        return response;
    }

    static ApiProblem translate(int status, Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof ApiProblem p) {
                return p;
            }
            if (t instanceof JsonProcessingException json) {
                return JsonProblems.of(json);
            }
            if (t instanceof SQLException sql && UniqueViolation.SQL_STATE.equals(sql.getSQLState())) {
                return UniqueViolation.of(sql);
            }
            if (t instanceof ConstraintViolationException violations) {
                return Validation.of(violations);
            }
            if (t instanceof jakarta.validation.ValidationException) {
                return new ApiProblem(ProblemCode.VALIDATION_FAILED,
                        "the body must be a JSON object of the documented shape");
            }
            if (t instanceof dev.stockade.api.kernel.secrets.UnreadableSecret unreadable) {
                LOG.error(unreadable.getMessage());
                return new ApiProblem(ProblemCode.SECRETS_UNREADABLE, unreadable.getMessage());
            }
            if (t.getClass().getName().endsWith("TooLongHttpHeaderException")) {
                return new ApiProblem(ProblemCode.HEADERS_TOO_LARGE, detailFor(ProblemCode.HEADERS_TOO_LARGE));
            }
            if (t == t.getCause()) {
                break;
            }
        }
        LOG.debug("request failed with {}", status, cause);
        ProblemCode code = ProblemCode.forStatus(status);
        if (code == ProblemCode.INTERNAL && cause != null) {
            LOG.error("unexpected {} while serving a request", cause.getClass().getName());
            LOG.debug("unexpected failure", cause);
        }
        return new ApiProblem(code, detailFor(code), List.of());
    }

    private static String detailFor(ProblemCode code) {
        return switch (code) {
            case NOT_FOUND -> "no such resource";
            case METHOD_NOT_ALLOWED -> "this resource does not support the request's method";
            case UNSUPPORTED_MEDIA_TYPE -> "send `application/json`";
            case NOT_ACCEPTABLE -> "this resource answers `application/json` only";
            case PAYLOAD_TOO_LARGE -> "the request body is larger than the limit";
            case HEADERS_TOO_LARGE -> "the request's header block is larger than `config.maxHeaderBytes`";
            case UNAUTHENTICATED -> "a bearer token is required";
            case INTERNAL -> "the platform failed to serve this request; it has been logged";
            default -> "the request could not be served";
        };
    }
}

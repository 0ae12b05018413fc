package dev.stockade.api.kernel.web;

import io.micronaut.http.HttpRequest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a route's query parameters strictly: known names only, each at most once, typed values with clear 400s. */
public final class QueryParameters {
    private QueryParameters() {
    }

    /** The request's query parameters by name; an unknown or repeated one is a 400. */
    public static Map<String, String> single(HttpRequest<?> request, Set<String> known) {
        Map<String, String> q = new HashMap<>();
        for (String name : request.getParameters().names()) {
            if (!known.contains(name)) {
                throw new ApiProblem(ProblemCode.INVALID_PARAMETER, "unknown query parameter `" + Text.clip(name)
                        + "`");
            }
            List<String> all = request.getParameters().getAll(name);
            if (all.size() != 1) {
                throw new ApiProblem(ProblemCode.INVALID_PARAMETER, "`" + name + "` given more than once");
            }
            q.put(name, all.get(0));
        }
        return q;
    }

    /** An ISO 8601 instant, or null when absent. */
    public static Instant instant(String name, String v) {
        if (v == null) {
            return null;
        }
        Instant t;
        try {
            t = Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw invalid(name, "`" + name + "` must be an ISO 8601 instant such as `2026-11-23T10:00:00Z`");
        }
        String why = StorableTime.flaw(t);
        if (why != null) {
            throw invalid(name, "`" + name + "` " + why);
        }
        return t;
    }

    public static int integer(String name, String v) {
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw invalid(name, "`" + name + "` must be an integer");
        }
    }

    /** A 400 {@code invalid-parameter} pointing at the parameter. */
    public static ApiProblem invalid(String name, String detail) {
        return new ApiProblem(ProblemCode.INVALID_PARAMETER, detail,
                List.of(new FieldError("/" + name, "invalid", detail)));
    }
}

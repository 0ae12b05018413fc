package dev.stockade.api.impact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.impact.ImpactLimits;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceMap;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A policy-impact request, read and bounded before any entry is read: the window ({@code since}, {@code until},
 * at most {@link ImpactLimits#maxWindow()} long), the candidate documents that replace the stored policies of the same
 * name, and optionally a whole candidate ceiling. Every candidate is checked by the core; its problems come back as
 * one 400 with pointers into the body.
 *
 * @param since    start of the window, inclusive
 * @param until    end of the window, exclusive (default: now)
 * @param policies candidate documents, checked and normalised by the core
 * @param ceiling  a candidate org ceiling replacing the stored one, {@code null} to keep it (with replacements)
 */
record ImpactRequest(Instant since, Instant until, List<JsonNode> policies, @Nullable List<JsonNode> ceiling) {
    private static final Set<String> FIELDS = Set.of("since", "until", "policies", "ceiling");
    /** Candidates per request: each is resolved into every sandbox it reaches. */
    static final int MAX_CANDIDATES = 50;

    static ImpactRequest parse(ObjectMapper json, String body, ImpactLimits limits, Instant now) {
        JsonNode root = BodyObject.read(json, body, FIELDS);
        TrailWindow window = TrailWindow.of(root, limits, now);
        List<JsonNode> policies = root.has("policies") ? documents(root, "policies", true) : List.of();
        List<JsonNode> ceiling = root.has("ceiling") ? documents(root, "ceiling", false) : null;
        if (policies.isEmpty() && ceiling == null) {
            throw ApiProblem.invalid("/policies", "required", "give candidate `policies`, a `ceiling`, or both");
        }
        return new ImpactRequest(window.since(), window.until(), policies, ceiling);
    }

    /** The checked candidate documents of {@code field}; names unique in it when they replace stored policies. */
    private static List<JsonNode> documents(JsonNode root, String field, boolean byName) {
        JsonNode array = root.path(field);
        if (!array.isArray() || array.size() > MAX_CANDIDATES) {
            throw ApiProblem.invalid("/" + field, "type", "`" + field + "` must be an array of at most "
                    + MAX_CANDIDATES + " policy documents");
        }
        List<JsonNode> out = new ArrayList<>();
        List<FieldError> errors = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < array.size(); i++) {
            String at = "/" + field + "/" + i;
            JsonNode doc = array.get(i);
            ReadResult r = PolicyReader.fromTree(doc, SourceMap.empty(), "candidate", doc.toString());
            r.problems().stream().filter(Problem::isError).forEach(p ->
                    errors.add(new FieldError(at + p.pointer(), p.code(), p.message())));
            if (r.valid() && byName && !names.add(r.policy().name())) {
                errors.add(new FieldError(at + "/name", "duplicate-name", "two candidates are named `"
                        + r.policy().name() + "`"));
            }
            if (r.valid()) {
                out.add(r.tree());
            }
        }
        if (!errors.isEmpty()) {
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, errors.size() == 1 ? errors.get(0).detail()
                    : errors.size() + " problems in the candidates", errors);
        }
        return out;
    }
}

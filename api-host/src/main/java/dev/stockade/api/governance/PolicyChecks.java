package dev.stockade.api.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.StorableText;
import dev.stockade.policy.model.Documents;
import dev.stockade.policy.model.ParsedDocument;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.PolicyUpdates;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceMap;
import dev.stockade.policy.model.UpdateResult;
import java.util.List;

/**
 * The host's side of policy validation: every rule is the core's ({@link PolicyReader}, {@link PolicyUpdates}); this
 * class only turns the core's problems into one 400 problem whose {@code errors} carry the core's codes, pointers and,
 * where the core knows them, line and column in the body as sent.
 */
public final class PolicyChecks {
    private static final String SOURCE = "request body";

    private PolicyChecks() {
    }

    /** A whole policy document (JSON or YAML); returns the checked tree or throws the core's problems. */
    static JsonNode read(String text) {
        ReadResult result = PolicyReader.read(SOURCE, text == null ? "" : text);
        if (!result.valid()) {
            throw rejected(result.problems(), SourceMap.empty());
        }
        StorableText.check(result.tree());
        return result.tree();
    }

    /** A standalone update (spec "Update semantics") of {@code stored} by the body {@code text}. */
    static JsonNode update(JsonNode stored, String text) {
        ParsedDocument patch = Documents.parse(SOURCE, text == null ? "" : text);
        if (patch.root() == null || patch.hasErrors()) {
            throw rejected(patch.problems(), patch.sourceMap());
        }
        StorableText.check(patch.root());
        UpdateResult result = PolicyUpdates.standalone(stored, patch.root());
        if (!result.applied()) {
            // Problems about the merged result name pointers; those the caller sent are placed in the body.
            throw rejected(result.problems(), patch.sourceMap());
        }
        return result.result();
    }

    /** The core's problems as one 400 problem, positioned in the body as sent where the core has no position. */
    public static ApiProblem rejected(List<Problem> problems, SourceMap body) {
        List<FieldError> errors = problems.stream().filter(Problem::isError).map(p -> fieldError(p, body)).toList();
        if (errors.isEmpty()) {
            errors = List.of(new FieldError("", "invalid-policy", "the policy is not valid"));
        }
        String detail = errors.size() == 1 ? errors.get(0).detail() : errors.size() + " problems in the policy";
        return new ApiProblem(ProblemCode.VALIDATION_FAILED, detail, errors);
    }

    private static FieldError fieldError(Problem p, SourceMap body) {
        int line = p.line();
        int column = p.column();
        if (line == 0) {
            var known = body.position(p.pointer());
            if (known.isPresent()) {
                line = known.get().line();
                column = known.get().column();
            }
        }
        return new FieldError(p.pointer(), p.code(), p.message(), line > 0 ? line : null, column > 0 ? column : null);
    }
}

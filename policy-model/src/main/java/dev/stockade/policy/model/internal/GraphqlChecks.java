package dev.stockade.policy.model.internal;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.model.ProblemCode;
import java.util.ArrayList;
import java.util.List;

/**
 * The semantic checks of a GraphQL fence (operation name, root fields, argument conditions), reporting through the
 * {@link SemanticChecks} run they belong to.
 */
final class GraphqlChecks {
    private final SemanticChecks checks;

    GraphqlChecks(SemanticChecks checks) {
        this.checks = checks;
    }

    /** The checks of one rule's {@code graphql} fence at {@code at}. */
    void fence(String at, JsonNode g) {
        String operationName = SemanticChecks.text(g, "operationName");
        if (operationName != null) {
            checks.glob(GlobKind.NAME, at + "/operationName", operationName);
        }
        JsonNode fields = SemanticChecks.array(g, "fields");
        List<Glob> fieldGlobs = new ArrayList<>();
        boolean allFieldsCompiled = true;
        if (fields != null) {
            if (fields.isEmpty()) {
                checks.error(ProblemCode.EMPTY_FIELDS, at + "/fields", "`fields` is empty",
                        "omit `fields` to permit any root field, or list the fields");
            }
            for (int i = 0; i < fields.size(); i++) {
                JsonNode f = fields.get(i);
                Glob compiled = f.isTextual() ? checks.glob(GlobKind.NAME, at + "/fields/" + i, f.textValue()) : null;
                if (compiled == null) {
                    allFieldsCompiled = false;
                } else {
                    fieldGlobs.add(compiled);
                }
            }
        }
        JsonNode arguments = SemanticChecks.array(g, "arguments");
        if (arguments == null) {
            return;
        }
        if (!g.has("fields")) {
            checks.error(ProblemCode.ARGUMENTS_WITHOUT_FIELDS, at + "/arguments",
                    "`arguments` requires `fields` beside it",
                    "add `fields` naming the root fields the conditions apply to");
        }
        if (arguments.isEmpty()) {
            checks.error(ProblemCode.EMPTY_ARGUMENTS, at + "/arguments", "`arguments` is empty",
                    "omit it or add a condition");
        }
        for (int i = 0; i < arguments.size(); i++) {
            JsonNode a = arguments.get(i);
            if (a.isObject()) {
                argument(at + "/arguments/" + i, a, fields != null && allFieldsCompiled ? fieldGlobs : null);
            }
        }
    }

    private void argument(String at, JsonNode a, List<Glob> fieldGlobs) {
        String field = SemanticChecks.text(a, "field");
        if (field != null) {
            if (field.indexOf('*') >= 0) {
                checks.error(ProblemCode.ARGUMENT_FIELD_GLOB, at + "/field", "argument condition field " + Quoted.input(field)
                        + " must be an exact root field name, not a glob", "write one condition per field");
            } else if (!isGraphqlName(field)) {
                checks.error(ProblemCode.INVALID_FIELD_NAME, at + "/field",
                        Quoted.input(field) + " is not a graphql field name", "use the root field's name, never an alias");
            } else if (fieldGlobs != null && fieldGlobs.stream().noneMatch(gl -> gl.matches(field))) {
                checks.error(ProblemCode.ARGUMENT_FIELD_DENIED, at + "/field",
                        "argument condition names field " + Quoted.input(field) + " that `fields` does not admit",
                        "add " + Quoted.input(field) + " to `fields` or fix the name");
            }
        }
        String pointer = SemanticChecks.text(a, "pointer");
        if (pointer != null) {
            String problem = pointerProblem(pointer);
            if (problem != null) {
                checks.error(ProblemCode.INVALID_POINTER, at + "/pointer", problem,
                        "write an rfc 6901 pointer such as `/input/owner`; `~1` for `/` and `~0` for `~` inside a key");
            }
        }
        String glob = SemanticChecks.text(a, "glob");
        if (glob != null) {
            checks.glob(GlobKind.VALUE, at + "/glob", glob);
        }
    }

    private static boolean isGraphqlName(String s) {
        if (s.isEmpty() || TextRules.isDigit(s.charAt(0))) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }

    /** Why {@code p} is not an RFC 6901 pointer rooted at the arguments, or {@code null} when it is. */
    static String pointerProblem(String p) {
        if (!p.startsWith("/")) {
            return "pointer " + Quoted.input(p) + " must start with `/`";
        }
        for (int i = 0; i < p.length(); i++) {
            if (p.charAt(i) == '~' && (i + 1 >= p.length() || (p.charAt(i + 1) != '0' && p.charAt(i + 1) != '1'))) {
                return "pointer " + Quoted.input(p) + " has `~` not followed by `0` or `1`";
            }
        }
        return null;
    }
}

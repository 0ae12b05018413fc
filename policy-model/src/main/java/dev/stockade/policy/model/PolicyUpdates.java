package dev.stockade.policy.model;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The two update semantics of spec "Update semantics", as pure functions on JSON trees: the stored
 * tree is never modified, the result is validated like a written policy, and an invalid result leaves
 * the stored policy as it was.
 */
public final class PolicyUpdates {
    private static final Set<String> CLEARABLE = Set.of("piiMasking", "managedInference");

    private PolicyUpdates() {
    }

    /**
     * A standalone project or org policy update: each supplied top-level field replaces the stored value
     * whole (lists are replaced, an empty array clears), omitted fields are untouched, {@code name} is
     * required and always written, and no field may be null.
     */
    public static UpdateResult standalone(JsonNode stored, JsonNode update) {
        JsonNode before = stored == null ? NullNode.getInstance() : stored;
        if (update == null || !update.isObject()) {
            return refused(before, Problem.error(ProblemCode.WRONG_TYPE, "", "update must be an object", null));
        }
        List<Problem> problems = new ArrayList<>();
        requireName(update, problems);
        ObjectNode merged = base(stored);
        for (Iterator<Map.Entry<String, JsonNode>> it = update.properties().iterator(); it.hasNext();) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getValue().isNull()) {
                problems.add(Problem.error(ProblemCode.NULL_VALUE, "/" + escape(f.getKey()),
                        Quoted.input(f.getKey()) + " cannot be null in a policy update",
                        "send an empty array to clear a list, or omit the key to keep it"));
            } else {
                merged.set(f.getKey(), f.getValue().deepCopy());
            }
        }
        return finish(before, merged, problems);
    }

    /**
     * A sandbox's embedded policy (PATCH body {@code {policy: {...}}}): merge by top-level key; a key
     * with a value replaces whole, an omitted key keeps, {@code piiMasking: null} and
     * {@code managedInference: null} clear their block, {@code policy: null} drops the policy, no
     * {@code policy} key leaves it untouched. {@code name} is required.
     */
    public static UpdateResult embedded(JsonNode stored, JsonNode patchBody) {
        JsonNode before = stored == null ? NullNode.getInstance() : stored;
        if (patchBody == null || !patchBody.isObject()) {
            return refused(before, Problem.error(ProblemCode.WRONG_TYPE, "", "patch body must be an object", null));
        }
        List<Problem> unknown = new ArrayList<>();
        for (Iterator<String> it = patchBody.fieldNames(); it.hasNext();) {
            String key = it.next();
            if (!key.equals("policy")) {
                unknown.add(Problem.error(ProblemCode.UNKNOWN_KEY, "/" + escape(key), "unknown key " + Quoted.input(key) + " in the patch body",
                        "send the policy as `{policy: {...}}`"));
            }
        }
        if (!unknown.isEmpty()) {
            return new UpdateResult(false, before, unknown);
        }
        if (!patchBody.has("policy")) {
            return new UpdateResult(true, before, List.of());
        }
        JsonNode policy = patchBody.get("policy");
        if (policy.isNull()) {
            return new UpdateResult(true, NullNode.getInstance(), List.of());
        }
        if (!policy.isObject()) {
            return refused(before, Problem.error(ProblemCode.WRONG_TYPE, "", "`policy` must be an object or null", null));
        }
        List<Problem> problems = new ArrayList<>();
        requireName(policy, problems);
        ObjectNode merged = base(stored);
        for (Iterator<Map.Entry<String, JsonNode>> it = policy.properties().iterator(); it.hasNext();) {
            Map.Entry<String, JsonNode> f = it.next();
            String key = f.getKey();
            if (!f.getValue().isNull()) {
                merged.set(key, f.getValue().deepCopy());
            } else if (CLEARABLE.contains(key)) {
                merged.remove(key);
            } else {
                problems.add(Problem.error(ProblemCode.NULL_VALUE, "/" + escape(key), Quoted.input(key) + " cannot be null",
                        key.equals("description") ? "description cannot be cleared; send a new text"
                                : "send an empty array to clear a list, or omit the key to keep it"));
            }
        }
        return finish(before, merged, problems);
    }

    private static void requireName(JsonNode update, List<Problem> problems) {
        if (!update.has("name")) {
            problems.add(Problem.error(ProblemCode.MISSING_KEY, "/name", "missing required key `name`",
                    "send the policy's name on every update; it is always written"));
        }
    }

    private static ObjectNode base(JsonNode stored) {
        return stored != null && stored.isObject() ? ((ObjectNode) stored).deepCopy()
                : JsonNodeFactory.instance.objectNode();
    }

    private static UpdateResult finish(JsonNode before, ObjectNode merged, List<Problem> problems) {
        if (!problems.isEmpty()) {
            return new UpdateResult(false, before, PolicyReader.sorted(problems));
        }
        ReadResult checked = PolicyReader.fromTree(merged, SourceMap.empty(), "update", "");
        if (!checked.valid()) {
            return new UpdateResult(false, before, checked.problems());
        }
        return new UpdateResult(true, merged, checked.problems());
    }

    private static UpdateResult refused(JsonNode before, Problem problem) {
        return new UpdateResult(false, before, List.of(problem));
    }

    private static String escape(String key) {
        return dev.stockade.policy.model.internal.TreeReader.escape(key);
    }
}

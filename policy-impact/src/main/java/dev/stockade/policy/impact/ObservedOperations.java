package dev.stockade.policy.impact;

import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Rule;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The GraphQL operations allowed on each method and path of one entry, from the summaries the proxy recorded: where
 * every allowed request of a method and path carried a complete summary, {@code policy suggest} fences it with one
 * graphql rule per operation type listing the root fields seen (docs/policy-impact.md, "Suggest"). A request whose
 * operations are of several types (a batch, a query beside a mutation) is judged whole by each rule, so no per-type
 * rule admits it: such requests get one rule of type {@code *} with their fields. One request without a summary
 * leaves that method and path a plain rule: nothing says what it sent. Not thread-safe.
 */
final class ObservedOperations {
    /** Introspection fields a fence with {@code fields} denies whatever they list; seeing one drops the list. */
    private static final Set<String> INTROSPECTION = Set.of("__schema", "__type");
    /** Passes every fence on its own (it names the root type); listed only when nothing else was seen. */
    private static final String TYPENAME = "__typename";

    private record Key(String method, String path) {
    }

    private final Map<Key, Map<OperationType, Set<String>>> seen = new TreeMap<>(
            java.util.Comparator.comparing(Key::method).thenComparing(Key::path));
    private final Set<Key> unsummarised = new HashSet<>();

    /** One allowed request of {@code method} and {@code path} and what the fence judged in it ({@code null}: none). */
    void see(String method, String path, GraphqlSummary graphql) {
        Key key = new Key(method, path);
        if (graphql == null || graphql.truncated()) {
            unsummarised.add(key);
            return;
        }
        Set<OperationType> types = graphql.types();
        OperationType type = types.size() == 1 ? types.iterator().next() : OperationType.ANY;
        Set<String> fields = seen.computeIfAbsent(key, k -> new EnumMap<>(OperationType.class))
                .computeIfAbsent(type, t -> new TreeSet<>());
        graphql.operations().forEach(o -> fields.addAll(o.fields()));
    }

    /** Everything {@code other} saw, added to this. */
    void absorb(ObservedOperations other) {
        unsummarised.addAll(other.unsummarised);
        other.seen.forEach((key, types) -> types.forEach((type, fields) -> seen.computeIfAbsent(key,
                k -> new EnumMap<>(OperationType.class)).computeIfAbsent(type, t -> new TreeSet<>()).addAll(fields)));
    }

    /** Whether {@code method} and {@code path} get graphql rules: every allowed request on it was summarised. */
    boolean fenced(String method, String path) {
        Key key = new Key(method, path);
        return seen.containsKey(key) && !unsummarised.contains(key);
    }

    /**
     * The graphql rules of {@code method} and {@code path} ({@link #fenced} true): one per type, in type order, the
     * {@code *} rule of requests that mixed types last.
     */
    List<Rule> rules(String method, String path) {
        List<Rule> rules = new ArrayList<>();
        seen.get(new Key(method, path)).forEach((type, fields) ->
                rules.add(new Rule(method, path, new GraphqlFence(type, null, fieldList(fields), null))));
        return rules;
    }

    /** The root fields seen, exact; none (any field) once introspection was seen, which a list would deny. */
    private static List<String> fieldList(Set<String> fields) {
        if (fields.stream().anyMatch(INTROSPECTION::contains)) {
            return null;
        }
        List<String> listed = new ArrayList<>(fields);
        if (listed.size() > 1) {
            listed.remove(TYPENAME);
        }
        return listed;
    }
}

package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.OperationType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Builds the request a {@link GraphqlSummary} stands for, and reads a prepared request into one: the two halves
 * of recording what a fence judged and judging it again with the fence's own reader and rules.
 */
public final class SummaryReplay {

    private SummaryReplay() {
    }

    /** The summary of a read request within the bounds, or empty when reading it denied (nothing was judged). */
    public static Optional<GraphqlSummary> of(Prepared prepared) {
        if (prepared.failure() != null) {
            return Optional.empty();
        }
        List<GraphqlSummary.Operation> kept = new ArrayList<>();
        int fields = 0;
        boolean truncated = false;
        List<List<PreparedOperation>> batch = prepared.operations();
        outer:
        for (int element = 0; element < batch.size(); element++) {
            for (PreparedOperation operation : batch.get(element)) {
                List<String> names = distinctNames(operation.rootFields());
                boolean fits = kept.size() < GraphqlSummary.MAX_OPERATIONS
                        && fields + names.size() <= GraphqlSummary.MAX_FIELDS
                        && (operation.name() == null || GraphqlSummary.isName(operation.name()))
                        && names.stream().allMatch(GraphqlSummary::isName);
                if (!fits) {
                    truncated = true;
                    break outer;
                }
                fields += names.size();
                kept.add(new GraphqlSummary.Operation(element, OperationType.fromWire(operation.type()),
                        operation.name(), names));
            }
        }
        // a frame of housekeeping (ping, complete) carries no operation: nothing was judged
        return kept.isEmpty() && !truncated ? Optional.empty() : Optional.of(new GraphqlSummary(kept, truncated));
    }

    private static List<String> distinctNames(List<RootField> roots) {
        List<String> names = new ArrayList<>(roots.size());
        for (RootField root : roots) {
            if (!names.contains(root.name())) {
                names.add(root.name());
            }
        }
        return names;
    }

    /** See {@link GraphqlSummary#replayRequest}. */
    public static Optional<GraphqlSummary.ReplayRequest> request(GraphqlSummary summary, String method) {
        Map<Integer, List<GraphqlSummary.Operation>> elements = new TreeMap<>();
        summary.operations().forEach(o -> elements.computeIfAbsent(o.element(), e -> new ArrayList<>()).add(o));
        List<String[]> documents = new ArrayList<>(); // {query text, operation name or null}
        for (List<GraphqlSummary.Operation> operations : elements.values()) {
            String selected = operations.size() == 1 ? null : uniqueName(operations);
            if (operations.size() > 1 && selected == null) {
                return Optional.empty(); // the fence refuses such a document before judging it
            }
            documents.add(new String[] {document(operations), selected});
        }
        boolean get = method != null && (method.equalsIgnoreCase("GET") || method.equalsIgnoreCase("HEAD"));
        if (get) {
            if (documents.size() != 1) {
                return Optional.empty(); // URL parameters carry one document
            }
            String[] d = documents.get(0);
            String query = "query=" + URLEncoder.encode(d[0], StandardCharsets.UTF_8)
                    + (d[1] == null ? "" : "&operationName=" + URLEncoder.encode(d[1], StandardCharsets.UTF_8));
            return Optional.of(new GraphqlSummary.ReplayRequest(null, query, null));
        }
        StringBuilder json = new StringBuilder();
        if (documents.size() > 1) {
            json.append('[');
        }
        for (int i = 0; i < documents.size(); i++) {
            String[] d = documents.get(i);
            // names are GraphQL names (the summary refuses anything else): nothing to escape in the JSON strings
            json.append(i == 0 ? "" : ",").append("{\"query\":\"").append(d[0]).append('"');
            if (d[1] != null) {
                json.append(",\"operationName\":\"").append(d[1]).append('"');
            }
            json.append('}');
        }
        if (documents.size() > 1) {
            json.append(']');
        }
        return Optional.of(new GraphqlSummary.ReplayRequest("application/json", null,
                json.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /** Each operation written with its type, name and root fields, nothing else: {@code query Name { a b }}. */
    private static String document(List<GraphqlSummary.Operation> operations) {
        StringBuilder text = new StringBuilder();
        for (GraphqlSummary.Operation o : operations) {
            text.append(text.isEmpty() ? "" : " ").append(o.type().wire());
            if (o.name() != null) {
                text.append(' ').append(o.name());
            }
            text.append(" {");
            o.fields().forEach(f -> text.append(' ').append(f));
            text.append(" }");
        }
        return text.toString();
    }

    /** The first name no other operation of the element shares: what the client's operationName selected. */
    private static String uniqueName(List<GraphqlSummary.Operation> operations) {
        Map<String, Integer> counts = new HashMap<>();
        operations.forEach(o -> {
            if (o.name() != null) {
                counts.merge(o.name(), 1, Integer::sum);
            }
        });
        for (GraphqlSummary.Operation o : operations) {
            if (o.name() != null && counts.get(o.name()) == 1) {
                return o.name();
            }
        }
        return null;
    }
}

package dev.stockade.policy.graphql;

import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Small builders shared by the tests. */
final class Fences {
    private Fences() {
    }

    static GraphqlFence fence(OperationType type, String name, List<String> fields, ArgumentCondition... conditions) {
        return new GraphqlFence(type, name, fields, conditions.length == 0 ? null : List.of(conditions));
    }

    static ArgumentCondition arg(String field, String pointer, String glob) {
        return new ArgumentCondition(field, pointer, glob);
    }

    static GraphqlFenceSet set(GraphqlFence... fences) {
        return GraphqlFenceSet.allOf(List.of(fences), GraphqlLimits.defaults());
    }

    static GraphqlExchange post(String json) {
        return GraphqlExchange.of("POST", "application/json", null, json.getBytes(StandardCharsets.UTF_8), false, false);
    }

    /** A JSON POST of {@code query} with the variables JSON text (may be null) and operation name. */
    static GraphqlExchange post(String query, String operationName, String variablesJson) {
        StringBuilder json = new StringBuilder("{\"query\":").append(quote(query));
        if (operationName != null) {
            json.append(",\"operationName\":").append(quote(operationName));
        }
        if (variablesJson != null) {
            json.append(",\"variables\":").append(variablesJson);
        }
        return post(json.append('}').toString());
    }

    static GraphqlExchange query(String query) {
        return post(query, null, null);
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}

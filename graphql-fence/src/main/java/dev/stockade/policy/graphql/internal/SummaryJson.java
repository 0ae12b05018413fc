package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.policy.model.OperationType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one JSON form of a {@link GraphqlSummary}, written into audit lines and read back from them (a replica's
 * shipped line, an exported trail): {@code {"operations":[{"element":0,"type":"query","name":"Viewer",
 * "fields":["viewer"]}],"truncated":false}}. Reading is strict: whatever a proxy could not have written is refused.
 */
public final class SummaryJson {
    /** Deep enough for the form above; anything nested deeper is not a summary. */
    private static final JsonValues JSON = new JsonValues(4);

    private SummaryJson() {
    }

    /** The compact JSON text. Names are GraphQL names (the summary refuses others), so none needs escaping. */
    public static String write(GraphqlSummary summary) {
        StringBuilder b = new StringBuilder(64).append("{\"operations\":[");
        for (int i = 0; i < summary.operations().size(); i++) {
            GraphqlSummary.Operation o = summary.operations().get(i);
            b.append(i == 0 ? "" : ",").append("{\"element\":").append(o.element())
                    .append(",\"type\":\"").append(o.type().wire()).append("\",\"name\":")
                    .append(o.name() == null ? "null" : "\"" + o.name() + "\"").append(",\"fields\":[");
            for (int f = 0; f < o.fields().size(); f++) {
                b.append(f == 0 ? "\"" : ",\"").append(o.fields().get(f)).append('"');
            }
            b.append("]}");
        }
        return b.append("],\"truncated\":").append(summary.truncated()).append('}').toString();
    }

    /** The summary {@code json} holds; an {@link IllegalArgumentException} saying what is wrong otherwise. */
    public static GraphqlSummary read(String json) {
        Val value;
        try {
            value = JSON.read(json);
        } catch (JsonValues.JsonProblem e) {
            throw new IllegalArgumentException("graphql summary is not valid json");
        }
        if (!(value instanceof Val.ObjV object) || !(object.fields().get("operations") instanceof Val.ListV list)
                || !(object.fields().get("truncated") instanceof Val.Bool truncated)) {
            throw new IllegalArgumentException("graphql summary needs `operations` and `truncated`");
        }
        if (list.items().size() > GraphqlSummary.MAX_OPERATIONS) {
            throw new IllegalArgumentException("graphql summary holds more than " + GraphqlSummary.MAX_OPERATIONS
                    + " operations");
        }
        try {
            List<GraphqlSummary.Operation> operations = new ArrayList<>(list.items().size());
            for (Val item : list.items()) {
                operations.add(operation(item));
            }
            return new GraphqlSummary(operations, truncated.value());
        } catch (IllegalArgumentException e) {
            // the record's own refusal (a name that is not a GraphQL name, ...), said as the summary's
            throw e.getMessage().startsWith("graphql summary") ? e
                    : new IllegalArgumentException("graphql summary: " + e.getMessage());
        }
    }

    private static GraphqlSummary.Operation operation(Val item) {
        if (!(item instanceof Val.ObjV object)) {
            throw new IllegalArgumentException("graphql summary operation is not an object");
        }
        Map<String, Val> f = object.fields();
        OperationType type = f.get("type") instanceof Val.Str s ? OperationType.fromWire(s.text()) : null;
        if (!(f.get("element") instanceof Val.Num element) || !element.raw().matches("[0-9]{1,4}") || type == null
                || !(f.get("fields") instanceof Val.ListV fields)) {
            throw new IllegalArgumentException("graphql summary operation needs `element`, `type` and `fields`");
        }
        Val name = f.get("name");
        if (name != null && !(name instanceof Val.Null) && !(name instanceof Val.Str)) {
            throw new IllegalArgumentException("graphql summary operation name is not a string");
        }
        List<String> names = new ArrayList<>(fields.items().size());
        for (Val field : fields.items()) {
            if (!(field instanceof Val.Str s)) {
                throw new IllegalArgumentException("graphql summary field is not a string");
            }
            names.add(s.text());
        }
        return new GraphqlSummary.Operation(Integer.parseInt(element.raw()), type,
                name instanceof Val.Str s ? s.text() : null, names);
    }
}

package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceResult;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import java.util.List;

/**
 * One {@link GraphqlFence} compiled once: globs compiled, pointers split. Immutable and thread-safe;
 * {@link #judge} allocates only on a deny.
 */
public final class CompiledFence {

    private static final String SCHEMA = "__schema";
    private static final String TYPE = "__type";
    private static final String TYPENAME = "__typename";

    private final OperationType type;
    private final TextGlob name;          // null: any name, unnamed included
    private final TextGlob[] fields;      // null: any root field, introspection included
    private final Condition[] conditions;

    private record Condition(String field, String pointerText, ArgumentPointer pointer, TextGlob glob) {
    }

    private CompiledFence(OperationType type, TextGlob name, TextGlob[] fields, Condition[] conditions) {
        this.type = type;
        this.name = name;
        this.fields = fields;
        this.conditions = conditions;
    }

    /** Compiles a fence; a fence without an operation type admits nothing (validation refuses it). */
    public static CompiledFence compile(GraphqlFence fence) {
        TextGlob name = fence.operationName() == null ? null : new TextGlob(fence.operationName());
        TextGlob[] fields = null;
        if (fence.fields() != null) {
            fields = fence.fields().stream().map(TextGlob::new).toArray(TextGlob[]::new);
        }
        List<ArgumentCondition> arguments = fence.arguments() == null ? List.of() : fence.arguments();
        Condition[] conditions = arguments.stream()
                .map(a -> new Condition(a.field(), a.pointer(), ArgumentPointer.compile(a.pointer()),
                        a.glob() == null ? null : new TextGlob(a.glob())))
                .toArray(Condition[]::new);
        return new CompiledFence(fence.operationType(), name, fields, conditions);
    }

    /** Whether this fence grants a websocket upgrade (spec: subscription and * only). */
    public boolean grantsWebSocket() {
        return type != null && type.grantsWebSocket();
    }

    /** {@code null} when the operation passes this fence, else the deny. */
    public FenceResult judge(PreparedOperation operation) {
        if (type == null || (type != OperationType.ANY && !type.wire().equals(operation.type()))) {
            return FenceResult.deny(Reason.OPERATION_DENIED,
                    "operation type `" + operation.type() + "` is not admitted");
        }
        if (name != null && (operation.name() == null || !name.matches(operation.name()))) {
            return FenceResult.deny(Reason.NAME_DENIED, operation.name() == null
                    ? "an unnamed operation is not admitted"
                    : "operation name `" + operation.name() + "` is not admitted");
        }
        if (fields != null) {
            for (RootField field : operation.rootFields()) {
                FenceResult denied = judgeField(field.name());
                if (denied != null) {
                    return denied;
                }
            }
        }
        for (Condition condition : conditions) {
            FenceResult denied = judgeCondition(condition, operation.rootFields());
            if (denied != null) {
                return denied;
            }
        }
        return null;
    }

    private FenceResult judgeField(String field) {
        if (field.equals(TYPENAME)) {
            return null; // names the root type only; clients add it on their own
        }
        if (field.equals(SCHEMA) || field.equals(TYPE)) {
            return FenceResult.deny(Reason.FIELD_DENIED, "introspection field `" + field + "` is not admitted");
        }
        for (TextGlob glob : fields) {
            if (glob.matches(field)) {
                return null;
            }
        }
        return FenceResult.deny(Reason.FIELD_DENIED, "root field `" + field + "` is not admitted");
    }

    /** Every occurrence of the condition's field must reach a scalar that matches (spec rules 3, 4). */
    private static FenceResult judgeCondition(Condition condition, List<RootField> rootFields) {
        for (RootField field : rootFields) {
            if (!field.name().equals(condition.field())) {
                continue;
            }
            Val value = condition.pointer().resolve(field.arguments());
            String text = value.scalarText();
            if (text == null || condition.glob() == null || !condition.glob().matches(text)) {
                return FenceResult.deny(Reason.ARGUMENT_DENIED, "argument `" + condition.pointerText()
                        + "` of field `" + condition.field() + "` " + why(value));
            }
        }
        return null;
    }

    /** Never the value itself: arguments may carry secrets. */
    private static String why(Val value) {
        if (value instanceof Val.Nothing) {
            return "reaches no value";
        }
        if (value instanceof Val.Null) {
            return "is null";
        }
        if (value instanceof Val.ListV || value instanceof Val.ObjV) {
            return "is not a scalar";
        }
        return "does not match the fence";
    }
}

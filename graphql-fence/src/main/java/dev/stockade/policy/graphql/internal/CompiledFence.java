package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceReason;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.graphql.FenceResult;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import java.util.List;

/**
 * One {@link GraphqlFence} compiled once: globs compiled, pointers split. Immutable and thread-safe.
 */
public final class CompiledFence {

    private static final String SCHEMA = "__schema";
    private static final String TYPE = "__type";
    private static final String TYPENAME = "__typename";

    private final OperationType type;
    private final boolean nameFenced;     // false: any name, unnamed included
    private final Glob name;              // null when fenced by an invalid glob: matches nothing
    private final Glob[] fields;          // null: any root field, introspection included
    private final Condition[] conditions;

    /**
     * {@code glob == null}: an invalid glob, which no value matches. {@code refusal} is the start of the
     * condition's deny detail, quoted once here because it names only the policy's own text.
     */
    private record Condition(String field, ArgumentPointer pointer, Glob glob, String refusal) {
    }

    private CompiledFence(OperationType type, boolean nameFenced, Glob name, Glob[] fields,
                          Condition[] conditions) {
        this.type = type;
        this.nameFenced = nameFenced;
        this.name = name;
        this.fields = fields;
        this.conditions = conditions;
    }

    /** Compiles a fence; a fence without an operation type admits nothing (validation refuses it). */
    public static CompiledFence compile(GraphqlFence fence) {
        boolean nameFenced = fence.operationName() != null;
        Glob name = nameFenced ? glob(GlobKind.NAME, fence.operationName()) : null;
        Glob[] fields = null;
        if (fence.fields() != null) {
            fields = fence.fields().stream().map(f -> glob(GlobKind.NAME, f)).toArray(Glob[]::new);
        }
        List<ArgumentCondition> arguments = fence.arguments() == null ? List.of() : fence.arguments();
        Condition[] conditions = arguments.stream()
                .map(a -> new Condition(a.field(), ArgumentPointer.compile(a.pointer()),
                        glob(GlobKind.VALUE, a.glob()),
                        "argument " + Reason.quote(a.pointer()) + " of field " + Reason.quote(a.field()) + " "))
                .toArray(Condition[]::new);
        return new CompiledFence(fence.operationType(), nameFenced, name, fields, conditions);
    }

    /**
     * The compiled glob, or {@code null} for an invalid one. Validation refuses invalid globs when a policy
     * is written; should one reach a fence anyway it matches nothing (fail closed).
     */
    private static Glob glob(GlobKind kind, String text) {
        return Glob.compile(kind, text).glob();
    }

    /** Over the work bound: the request is denied, never passed unjudged. */
    private static final class OverBudget extends Exception {
        private static final long serialVersionUID = 1L;

        OverBudget() {
            super(null, null, false, false);
        }
    }

    private static boolean matches(Glob glob, String text, GlobWork work) throws OverBudget {
        if (glob == null) {
            return false;
        }
        Boolean matched = work.matches(glob, text);
        if (matched == null) {
            throw new OverBudget();
        }
        return matched;
    }

    /** Whether this fence grants a websocket upgrade (spec: subscription and * only). */
    public boolean grantsWebSocket() {
        return type != null && type.grantsWebSocket();
    }

    /**
     * {@code null} when the operation passes this fence, else the deny; glob matching is memoised and
     * charged to {@code work}, and a request that would exceed its bound is denied with {@code graphql-limit}.
     */
    public FenceResult judge(PreparedOperation operation, GlobWork work) {
        try {
            return judgeWithin(operation, work);
        } catch (OverBudget e) {
            return FenceResult.deny(FenceReason.LIMIT, "matching the fence's globs would need more work than the"
                    + " request's bound (graphql limits: maxGlobWork)");
        }
    }

    private FenceResult judgeWithin(PreparedOperation operation, GlobWork work) throws OverBudget {
        if (type == null || (type != OperationType.ANY && !type.wire().equals(operation.type()))) {
            return FenceResult.deny(FenceReason.OPERATION_DENIED,
                    Reason.quote("operation type ", operation.type(), " is not admitted"));
        }
        if (nameFenced && (operation.name() == null || !matches(name, operation.name(), work))) {
            return FenceResult.deny(FenceReason.NAME_DENIED, operation.name() == null
                    ? "an unnamed operation is not admitted"
                    : Reason.quote("operation name ", operation.name(), " is not admitted"));
        }
        if (fields != null) {
            for (RootField field : operation.rootFields()) {
                FenceResult denied = judgeField(field.name(), work);
                if (denied != null) {
                    return denied;
                }
            }
        }
        for (Condition condition : conditions) {
            FenceResult denied = judgeCondition(condition, operation.rootFields(), work);
            if (denied != null) {
                return denied;
            }
        }
        return null;
    }

    private FenceResult judgeField(String field, GlobWork work) throws OverBudget {
        if (field.equals(TYPENAME)) {
            return null; // names the root type only; clients add it on their own
        }
        if (field.equals(SCHEMA) || field.equals(TYPE)) {
            return FenceResult.deny(FenceReason.FIELD_DENIED,
                    Reason.quote("introspection field ", field, " is not admitted"));
        }
        for (Glob glob : fields) {
            if (matches(glob, field, work)) {
                return null;
            }
        }
        return FenceResult.deny(FenceReason.FIELD_DENIED, Reason.quote("root field ", field, " is not admitted"));
    }

    /** Every occurrence of the condition's field must reach a scalar that matches (spec rules 3, 4). */
    private static FenceResult judgeCondition(Condition condition, List<RootField> rootFields, GlobWork work)
            throws OverBudget {
        for (RootField field : rootFields) {
            if (!field.name().equals(condition.field())) {
                continue;
            }
            Val value = condition.pointer().resolve(field.arguments());
            String text = value.scalarText();
            if (text == null || !matches(condition.glob(), text, work)) {
                return FenceResult.deny(FenceReason.ARGUMENT_DENIED, condition.refusal() + why(value));
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

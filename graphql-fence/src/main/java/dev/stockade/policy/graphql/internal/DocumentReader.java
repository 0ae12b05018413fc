package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceReason;
import graphql.language.Argument;
import graphql.language.ArrayValue;
import graphql.language.BooleanValue;
import graphql.language.EnumValue;
import graphql.language.Field;
import graphql.language.FloatValue;
import graphql.language.FragmentDefinition;
import graphql.language.FragmentSpread;
import graphql.language.InlineFragment;
import graphql.language.IntValue;
import graphql.language.NullValue;
import graphql.language.ObjectField;
import graphql.language.ObjectValue;
import graphql.language.Selection;
import graphql.language.SelectionSet;
import graphql.language.StringValue;
import graphql.language.Value;
import graphql.language.VariableReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Prepares the operations of one submission for the fences: takes the (cached) analysis of its query
 * text, checks that the operation the client asked for exists, and resolves the root fields' arguments
 * against the variables.
 *
 * <p>Every operation of the document is prepared, not only the selected one: a fence judges them all.
 */
final class DocumentReader {

    private DocumentReader() {
    }

    static List<PreparedOperation> read(Submission submission, ParserSetup setup) throws Denied {
        List<DocumentAnalysis.Operation> operations = DocumentAnalysis.of(submission.query(), setup).operations();
        checkSelection(operations, submission.operationName());
        List<PreparedOperation> prepared = new ArrayList<>(operations.size());
        for (DocumentAnalysis.Operation operation : operations) {
            prepared.add(prepare(operation, submission.variables()));
        }
        return prepared;
    }

    /** The operation the server would run must exist and be unique; otherwise the server errors. */
    private static void checkSelection(List<DocumentAnalysis.Operation> operations, String operationName)
            throws Denied {
        if (operationName == null) {
            if (operations.size() > 1) {
                throw new Denied(FenceReason.OPERATION_UNKNOWN, "document holds several operations and the request names none");
            }
            return;
        }
        int found = 0;
        for (DocumentAnalysis.Operation operation : operations) {
            if (operationName.equals(operation.definition().getName())) {
                found++;
            }
        }
        if (found != 1) {
            throw new Denied(FenceReason.OPERATION_UNKNOWN, found == 0
                    ? "no operation of the document is named " + Reason.quote(operationName)
                    : "several operations of the document are named " + Reason.quote(operationName));
        }
    }

    private static PreparedOperation prepare(DocumentAnalysis.Operation operation, Val.ObjV variables) {
        Resolver resolver = new Resolver(variables, operation.declared(), operation.defaults());
        List<RootField> roots = new ArrayList<>(operation.rootFields().size());
        for (Field field : operation.rootFields()) {
            roots.add(new RootField(field.getName(), resolver.arguments(field.getArguments())));
        }
        return new PreparedOperation(operation.type(), operation.definition().getName(), roots);
    }

    /**
     * The root fields, through inline fragments and fragment spreads at the root level. A fragment spread
     * twice at the root contributes its fields once: its fields are the same nodes with the same arguments,
     * so judging them again cannot change the verdict, and skipping them stops exponential fan-out.
     * Directives ({@code @skip}, {@code @include}) are ignored: every written field is judged.
     */
    static List<Field> rootFields(SelectionSet root, Map<String, FragmentDefinition> fragments) {
        List<Field> fields = new ArrayList<>();
        Set<String> expanded = new HashSet<>();
        Deque<SelectionSet> pending = new ArrayDeque<>();
        pushIfPresent(pending, root);
        while (!pending.isEmpty()) {
            SelectionSet set = pending.pop();
            for (Selection<?> selection : set.getSelections()) {
                if (selection instanceof Field field) {
                    fields.add(field);
                } else if (selection instanceof InlineFragment inline) {
                    pushIfPresent(pending, inline.getSelectionSet());
                } else if (selection instanceof FragmentSpread spread && expanded.add(spread.getName())) {
                    // INVARIANT: FragmentCheck ran first, so the fragment exists.
                    pushIfPresent(pending, fragments.get(spread.getName()).getSelectionSet());
                }
            }
        }
        return fields;
    }

    /** Replaces variables by their values and turns GraphQL literals into {@link Val}. */
    private static final class Resolver {
        private final Val.ObjV variables;
        private final Set<String> declared;
        private final Map<String, Value<?>> defaults;

        Resolver(Val.ObjV variables, Set<String> declared, Map<String, Value<?>> defaults) {
            this.variables = variables;
            this.declared = declared;
            this.defaults = defaults;
        }

        Val.ObjV arguments(List<Argument> arguments) {
            if (arguments.isEmpty()) {
                return Val.EMPTY_OBJECT;
            }
            Map<String, Val> values = new LinkedHashMap<>();
            for (Argument argument : arguments) {
                put(values, argument.getName(), resolve(argument.getValue()));
            }
            return new Val.ObjV(values);
        }

        // Recursion depth is bounded by the parser's maxRuleDepth (values nest in grammar rules).
        Val resolve(Value<?> value) {
            if (value instanceof VariableReference reference) {
                return variable(reference.getName());
            }
            if (value instanceof StringValue string) {
                return new Val.Str(string.getValue());
            }
            if (value instanceof IntValue number) {
                String raw = number.getAdditionalData().get(RawNumberParser.RAW);
                return new Val.Num(raw != null ? raw : number.getValue().toString());
            }
            if (value instanceof FloatValue number) {
                String raw = number.getAdditionalData().get(RawNumberParser.RAW);
                return new Val.Num(raw != null ? raw : number.getValue().toString());
            }
            if (value instanceof BooleanValue bool) {
                return new Val.Bool(bool.isValue());
            }
            if (value instanceof EnumValue enumValue) {
                return new Val.Enum(enumValue.getName());
            }
            if (value instanceof NullValue) {
                return Val.NULL;
            }
            if (value instanceof ArrayValue array) {
                List<Val> items = new ArrayList<>(array.getValues().size());
                for (Value<?> item : array.getValues()) {
                    items.add(resolve(item));
                }
                return new Val.ListV(items);
            }
            if (value instanceof ObjectValue object) {
                Map<String, Val> fields = new LinkedHashMap<>();
                for (ObjectField field : object.getObjectFields()) {
                    put(fields, field.getName(), resolve(field.getValue()));
                }
                return new Val.ObjV(fields);
            }
            return Val.NOTHING;
        }

        /**
         * A supplied variable takes the supplied JSON value (an explicit null stays null); an unsupplied
         * one takes its declared default (what the server runs); otherwise, or when undeclared, nothing.
         */
        private Val variable(String name) {
            if (!declared.contains(name)) {
                return Val.NOTHING;
            }
            Val supplied = variables.fields().get(name);
            if (supplied != null) {
                return supplied;
            }
            Value<?> fallback = defaults.get(name);
            return fallback == null ? Val.NOTHING : resolve(fallback);
        }

        /** A key written twice is ambiguous (the server rejects or picks one): it resolves to nothing. */
        private static void put(Map<String, Val> values, String key, Val value) {
            if (values.putIfAbsent(key, value) != null) {
                values.put(key, Val.NOTHING);
            }
        }
    }

    /** Leaf fields have no selection set; ArrayDeque refuses nulls. */
    static void pushIfPresent(Deque<SelectionSet> pending, SelectionSet set) {
        if (set != null) {
            pending.push(set);
        }
    }
}

package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.graphql.FenceReason;
import graphql.language.Definition;
import graphql.language.Document;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.OperationDefinition;
import graphql.language.Value;
import graphql.language.VariableDefinition;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.ParserEnvironment;
import graphql.parser.exceptions.ParseCancelledException;
import graphql.parser.exceptions.ParseCancelledTooDeepException;
import graphql.parser.exceptions.ParseCancelledTooManyCharsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a fence needs from query text that does not depend on the variables or the operation name:
 * the operations with their root fields (fragments expanded) and variable definitions, or the deny that
 * parsing or checking the document produced. Immutable; cached by query text ({@link AnalysisCache}),
 * because clients send the same text again and again with other variables.
 */
final class DocumentAnalysis {

    /** One operation of the document, as far as it is known without the request's variables. */
    record Operation(OperationDefinition definition, String type, List<Field> rootFields, Set<String> declared,
                     Map<String, Value<?>> defaults) {
    }

    private final List<Operation> operations;
    private final Denied failure;

    private DocumentAnalysis(List<Operation> operations, Denied failure) {
        this.operations = operations;
        this.failure = failure;
    }

    /** The analysis of {@code query} under the setup's limits, from the setup's cache when the text was seen. */
    static DocumentAnalysis of(String query, ParserSetup setup) {
        return setup.cache().get(query, setup);
    }

    /** Whether analysing the document denied it. */
    boolean failed() {
        return failure != null;
    }

    /** The operations, or the cached deny. */
    List<Operation> operations() throws Denied {
        if (failure != null) {
            throw failure;
        }
        return operations;
    }

    static DocumentAnalysis analyse(String query, ParserSetup setup) {
        try {
            return new DocumentAnalysis(readOperations(parse(query, setup)), null);
        } catch (Denied denied) {
            return new DocumentAnalysis(List.of(), denied);
        }
    }

    private static Document parse(String query, ParserSetup setup) throws Denied {
        ParserEnvironment environment = ParserEnvironment.newParserEnvironment()
                .document(query)
                .parserOptions(setup.parserOptions())
                .build();
        try {
            return new RawNumberParser().parseDocument(environment);
        } catch (ParseCancelledTooManyCharsException | ParseCancelledTooDeepException
                 | ParseCancelledException e) {
            throw new Denied(FenceReason.LIMIT, "query text exceeds a parser limit");
        } catch (InvalidSyntaxException e) {
            throw new Denied(FenceReason.UNPARSEABLE, "query text is not valid graphql");
        } catch (RuntimeException | StackOverflowError e) {
            // Fail closed on anything the parser did not foresee.
            throw new Denied(FenceReason.UNPARSEABLE, "query text could not be read");
        }
    }

    private static List<Operation> readOperations(Document document) throws Denied {
        List<OperationDefinition> definitions = new ArrayList<>();
        Map<String, FragmentDefinition> fragments = new HashMap<>();
        for (Definition<?> definition : document.getDefinitions()) {
            if (definition instanceof OperationDefinition operation) {
                definitions.add(operation);
            } else if (definition instanceof FragmentDefinition fragment) {
                if (fragments.put(fragment.getName(), fragment) != null) {
                    throw new Denied(FenceReason.UNPARSEABLE, "fragment " + Reason.quote(fragment.getName()) + " is defined twice");
                }
            } else {
                throw new Denied(FenceReason.UNPARSEABLE, "document holds a type system definition");
            }
        }
        if (definitions.isEmpty()) {
            throw new Denied(FenceReason.UNPARSEABLE, "document holds no operation");
        }
        FragmentCheck.check(definitions, fragments);
        List<Operation> operations = new ArrayList<>(definitions.size());
        for (OperationDefinition definition : definitions) {
            operations.add(operation(definition, fragments));
        }
        return List.copyOf(operations);
    }

    private static Operation operation(OperationDefinition definition, Map<String, FragmentDefinition> fragments)
            throws Denied {
        Map<String, Value<?>> defaults = new HashMap<>();
        Set<String> declared = new HashSet<>();
        for (VariableDefinition variable : definition.getVariableDefinitions()) {
            if (!declared.add(variable.getName())) {
                throw new Denied(FenceReason.UNPARSEABLE, "variable " + Reason.quote("$" + variable.getName()) + " is declared twice");
            }
            if (variable.getDefaultValue() != null) {
                defaults.put(variable.getName(), variable.getDefaultValue());
            }
        }
        String type = switch (definition.getOperation()) {
            case QUERY -> "query"; // a shorthand `{ ... }` parses as a query
            case MUTATION -> "mutation";
            case SUBSCRIPTION -> "subscription";
        };
        return new Operation(definition, type, List.copyOf(DocumentReader.rootFields(definition.getSelectionSet(),
                fragments)), Set.copyOf(declared), Map.copyOf(defaults));
    }
}

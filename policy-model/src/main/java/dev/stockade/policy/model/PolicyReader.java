package dev.stockade.policy.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.model.internal.Binder;
import dev.stockade.policy.model.internal.Locator;
import dev.stockade.policy.model.internal.SchemaCheck;
import dev.stockade.policy.model.internal.SemanticChecks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads a policy document: parse with positions, then the JSON Schema, then the semantic checks, then
 * bind. Never throws for user input and never stops at the first problem; problems are sorted by
 * position and capped at {@link #MAX_PROBLEMS}.
 */
public final class PolicyReader {
    /** Most problems reported for one document; a warning says when more were dropped. */
    public static final int MAX_PROBLEMS = 100;

    private static final Comparator<Problem> BY_POSITION = Comparator
            .comparingInt((Problem p) -> p.line() == 0 ? Integer.MAX_VALUE : p.line())
            .thenComparingInt(Problem::column)
            .thenComparing(Problem::pointer)
            .thenComparing(Problem::code);

    private PolicyReader() {
    }

    /** Parses {@code text} (YAML or JSON), validates and binds it. */
    public static ReadResult read(String sourceName, String text) {
        ParsedDocument doc = Documents.parse(sourceName, text);
        if (doc.root() == null) {
            return new ReadResult(sourceName, doc.text(), null, null, doc.sourceMap(), sorted(doc.problems()));
        }
        ReadResult checked = fromTree(doc.root(), doc.sourceMap(), sourceName, doc.text());
        if (doc.problems().isEmpty()) {
            return checked;
        }
        List<Problem> all = new ArrayList<>(doc.problems());
        all.addAll(checked.problems());
        // Reading problems (duplicate keys, aliases) make the document invalid even if the tree checks out.
        boolean errors = all.stream().anyMatch(Problem::isError);
        return new ReadResult(sourceName, doc.text(), errors ? null : checked.policy(), doc.root(), doc.sourceMap(),
                sorted(all));
    }

    /**
     * Validates and binds an already-parsed node, for example an inline policy inside a test file
     * (pass the rebased source map and the whole text so that positions stay right).
     */
    public static ReadResult fromTree(JsonNode tree, SourceMap map, String sourceName, String text) {
        SourceMap sourceMap = map == null ? SourceMap.empty() : map;
        Locator locator = new Locator(sourceMap, text);
        List<Problem> problems = new ArrayList<>();
        if (tree == null || tree.isMissingNode()) {
            problems.add(Problem.error(ProblemCode.EMPTY_DOCUMENT, "", "policy is missing", null).at(locator.at("")));
            return new ReadResult(sourceName, text, null, tree, sourceMap, problems);
        }
        try {
            for (Problem p : SchemaCheck.check(tree)) {
                problems.add(p.at(locator.at(p.pointer())));
            }
            problems.addAll(SemanticChecks.check(tree, locator));
        } catch (RuntimeException e) {
            // INVARIANT: a document that breaks a check is refused, never accepted and never thrown.
            problems.add(Problem.error(ProblemCode.INTERNAL, "", "policy could not be checked", null));
        }
        List<Problem> result = sorted(problems);
        Policy policy = null;
        if (result.stream().noneMatch(Problem::isError)) {
            try {
                policy = Binder.bind(tree);
            } catch (RuntimeException e) {
                result = sorted(List.of(Problem.error(ProblemCode.INTERNAL, "", "policy could not be bound", null)));
            }
        }
        return new ReadResult(sourceName, text, policy, tree, sourceMap, result);
    }

    static List<Problem> sorted(List<Problem> problems) {
        List<Problem> out = new ArrayList<>(problems.stream().distinct().sorted(BY_POSITION).toList());
        if (out.size() > MAX_PROBLEMS) {
            int dropped = out.size() - MAX_PROBLEMS;
            out = new ArrayList<>(out.subList(0, MAX_PROBLEMS));
            out.add(Problem.warning(ProblemCode.TOO_MANY_PROBLEMS, "", dropped + " more problems not shown",
                    "fix the problems above and read again"));
        }
        return out;
    }
}

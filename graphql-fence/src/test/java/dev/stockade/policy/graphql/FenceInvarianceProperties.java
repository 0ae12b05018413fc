package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.arg;
import static dev.stockade.policy.graphql.Fences.fence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Verdicts depend on what an operation selects, never on how it is written: aliases, fragments and the
 * order of root fields change nothing, and a root field outside {@code fields} always denies
 * (QuickTheories, fixed seed: reruns are identical).
 */
class FenceInvarianceProperties {
    private static final long SEED = 0x5EED_0003L;

    static final List<String> FIELD_POOL = List.of("repository", "viewer", "organization", "search", "node");
    static final List<String> OWNERS = List.of("acme", "evil", "acme-labs");

    /** A root field occurrence: name, optional owner argument (literal or variable). */
    record RootCall(String name, String owner, boolean viaVariable) {
    }

    record Operation(String type, String name, List<RootCall> calls) {
    }

    private static QuickTheory qt(int examples) {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(examples);
    }

    private static <T> Gen<T> nullable(Gen<T> gen, int percentNull) {
        return gen.toOptionals(percentNull).map(o -> o.orElse(null));
    }

    static Gen<Operation> operations() {
        Gen<RootCall> call = arbitrary().pick(FIELD_POOL).zip(nullable(arbitrary().pick(OWNERS), 30),
                booleans().all(), RootCall::new);
        return arbitrary().pick("query", "mutation").zip(arbitrary().pick("GetRepo", "ListThings", "DropRepo"),
                lists().of(call).ofSizeBetween(1, 6), Operation::new);
    }

    static Gen<GraphqlFence> fences() {
        Gen<List<String>> fields = lists().of(arbitrary().pick(FIELD_POOL)).ofSizeBetween(1, 4)
                .map(l -> new ArrayList<>(new java.util.LinkedHashSet<>(l)));
        return arbitrary().pick(OperationType.QUERY, OperationType.MUTATION, OperationType.ANY).zip(
                nullable(arbitrary().pick("Get*", "*Repo", "ListThings"), 40), fields,
                nullable(arbitrary().pick("acme", "acme*", "*"), 40), (type, name, list, ownerGlob) -> {
                    List<ArgumentCondition> conditions = ownerGlob == null || !list.contains("repository")
                            ? null : List.of(arg("repository", "/owner", ownerGlob));
                    return new GraphqlFence(type, name, list, conditions);
                });
    }

    /** Renders the operation; {@code aliases}, {@code fragmentMode} and {@code order} only change its form. */
    static GraphqlExchange render(Operation op, boolean aliases, int fragmentMode, long seed) {
        Random random = new Random(seed);
        List<String> selections = new ArrayList<>();
        StringBuilder variableDefs = new StringBuilder();
        StringBuilder variables = new StringBuilder("{");
        int index = 0;
        for (RootCall call : op.calls()) {
            String args = "";
            if (call.owner() != null && call.viaVariable()) {
                String var = "v" + index;
                variableDefs.append(variableDefs.length() == 0 ? "(" : ", ").append('$').append(var).append(": String");
                variables.append(variables.length() == 1 ? "" : ",").append('"').append(var).append("\":\"")
                        .append(call.owner()).append('"');
                args = "(owner: $" + var + ")";
            } else if (call.owner() != null) {
                args = "(owner: \"" + call.owner() + "\")";
            }
            String alias = aliases ? "a" + Integer.toHexString(random.nextInt()) .replace('-', 'm') + index + ": " : "";
            selections.add(alias + call.name() + args + (call.name().equals("viewer") ? " { login }" : " { id }"));
            index++;
        }
        if (variableDefs.length() > 0) {
            variableDefs.append(')');
        }
        List<String> fragments = new ArrayList<>();
        List<String> root = new ArrayList<>();
        for (int i = 0; i < selections.size(); i++) {
            String selection = selections.get(i);
            switch (fragmentMode == 0 ? 0 : random.nextInt(3)) {
                case 1 -> root.add("... on " + rootType(op) + " { " + selection + " }");
                case 2 -> {
                    String name = "F" + i;
                    fragments.add("fragment " + name + " on " + rootType(op) + " { " + selection + " }");
                    root.add("..." + name);
                }
                default -> root.add(selection);
            }
        }
        String query = op.type() + " " + op.name() + variableDefs + " { " + String.join(" ", root) + " } "
                + String.join(" ", fragments);
        return Fences.post(query, null, variables.append('}').toString());
    }

    static String rootType(Operation op) {
        return op.type().equals("query") ? "Query" : "Mutation";
    }

    static FenceResult judge(GraphqlFence fence, GraphqlExchange exchange) {
        return GraphqlFenceSet.allOf(List.of(fence), GraphqlLimits.defaults()).judge(exchange);
    }

    static void sameVerdict(FenceResult a, FenceResult b) {
        assertThat(b.allowed()).isEqualTo(a.allowed());
        assertThat(b.reasonCode()).isEqualTo(a.reasonCode());
    }

    @Test
    void renamingAliasesNeverChangesTheVerdict() {
        qt(200).forAll(operations(), fences(), longs().all()).checkAssert((op, fence, seed) -> {
            sameVerdict(judge(fence, render(op, false, 0, seed)), judge(fence, render(op, true, 0, seed)));
            sameVerdict(judge(fence, render(op, true, 0, seed)), judge(fence, render(op, true, 0, seed + 1)));
        });
    }

    @Test
    void inliningFragmentsNeverChangesTheVerdict() {
        qt(200).forAll(operations(), fences(), longs().all()).checkAssert((op, fence, seed) ->
                sameVerdict(judge(fence, render(op, false, 0, seed)), judge(fence, render(op, false, 1, seed))));
    }

    @Test
    void reorderingRootFieldsNeverChangesTheVerdict() {
        qt(200).forAll(operations(), fences(), longs().all()).checkAssert((op, fence, seed) -> {
            List<RootCall> shuffled = new ArrayList<>(op.calls());
            Collections.shuffle(shuffled, new Random(seed));
            Operation reordered = new Operation(op.type(), op.name(), shuffled);
            sameVerdict(judge(fence, render(op, false, 0, seed)), judge(fence, render(reordered, false, 0, seed)));
        });
    }

    /**
     * The added field is the reason: the request parses (never unparseable or over a limit), and where the
     * fence admits the operation's type and name the deny is about a root field (this one, or an argument of
     * an earlier one); where the operation passed without it, the deny is this field's.
     */
    @Test
    void aRootFieldOutsideFieldsAlwaysDenies() {
        qt(200).forAll(operations(), fences(), longs().all()).checkAssert((op, fence, seed) -> {
            List<RootCall> calls = new ArrayList<>(op.calls());
            String outside = FIELD_POOL.stream().filter(f -> !fence.fields().contains(f)).findFirst()
                    .orElse("unlisted");
            calls.add(new Random(seed).nextInt(calls.size() + 1), new RootCall(outside, null, false));
            boolean aliases = seed % 2 == 0;
            int fragments = (int) (seed & 1);
            FenceResult before = judge(fence, render(op, aliases, fragments, seed));
            FenceResult result = judge(fence, render(new Operation(op.type(), op.name(), calls), aliases,
                    fragments, seed));
            assertThat(result.allowed()).isFalse();
            assertThat(result.reasonCode()).isIn("graphql-operation-denied", "graphql-name-denied",
                    "graphql-field-denied", "graphql-argument-denied");
            if (before.allowed()) {
                assertThat(result.reasonCode()).isEqualTo("graphql-field-denied");
                assertThat(result.detail()).contains("`" + outside + "`");
            } else if (Set.of("graphql-field-denied", "graphql-argument-denied").contains(before.reasonCode())) {
                assertThat(result.reasonCode()).isIn("graphql-field-denied", "graphql-argument-denied");
            }
        });
    }

    @Test
    void aFenceAdmitsWhatItDescribes() {
        // Control: the generator does produce allowed operations, so the properties above are not vacuous.
        qt(100).forAll(operations(), longs().all()).checkAssert((op, seed) -> {
            List<String> fields = op.calls().stream().map(RootCall::name).distinct().toList();
            GraphqlFence admitting = fence(OperationType.ANY, null, fields);
            assertThat(judge(admitting, render(op, true, 1, seed)).allowed()).isTrue();
        });
    }
}

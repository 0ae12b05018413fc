package dev.stockade.policy.graphql;

import static dev.stockade.policy.graphql.Fences.arg;
import static dev.stockade.policy.graphql.Fences.fence;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Verdicts depend on what an operation selects, never on how it is written: aliases, fragments and the
 * order of root fields change nothing, and a root field outside {@code fields} always denies.
 */
class FenceInvarianceProperties {

    static final List<String> FIELD_POOL = List.of("repository", "viewer", "organization", "search", "node");
    static final List<String> OWNERS = List.of("acme", "evil", "acme-labs");

    /** A root field occurrence: name, optional owner argument (literal or variable). */
    record RootCall(String name, String owner, boolean viaVariable) {
    }

    record Operation(String type, String name, List<RootCall> calls) {
    }

    @Provide
    Arbitrary<Operation> operations() {
        Arbitrary<RootCall> call = Combinators.combine(
                Arbitraries.of(FIELD_POOL),
                Arbitraries.of(OWNERS).injectNull(0.3),
                Arbitraries.of(true, false)).as(RootCall::new);
        return Combinators.combine(
                Arbitraries.of("query", "mutation"),
                Arbitraries.of("GetRepo", "ListThings", "DropRepo"),
                call.list().ofMinSize(1).ofMaxSize(6)).as(Operation::new);
    }

    @Provide
    Arbitrary<GraphqlFence> fences() {
        Arbitrary<List<String>> fields = Arbitraries.of(FIELD_POOL).set().ofMinSize(1).ofMaxSize(4)
                .map(ArrayList::new);
        return Combinators.combine(
                Arbitraries.of(OperationType.QUERY, OperationType.MUTATION, OperationType.ANY),
                Arbitraries.of("Get*", "*Repo", "ListThings").injectNull(0.4),
                fields,
                Arbitraries.of("acme", "acme*", "*").injectNull(0.4)).as((type, name, list, ownerGlob) -> {
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

    @Property(tries = 200)
    void renamingAliasesNeverChangesTheVerdict(@ForAll("operations") Operation op, @ForAll("fences") GraphqlFence fence,
                                              @ForAll long seed) {
        sameVerdict(judge(fence, render(op, false, 0, seed)), judge(fence, render(op, true, 0, seed)));
        sameVerdict(judge(fence, render(op, true, 0, seed)), judge(fence, render(op, true, 0, seed + 1)));
    }

    @Property(tries = 200)
    void inliningFragmentsNeverChangesTheVerdict(@ForAll("operations") Operation op, @ForAll("fences") GraphqlFence fence,
                                                @ForAll long seed) {
        sameVerdict(judge(fence, render(op, false, 0, seed)), judge(fence, render(op, false, 1, seed)));
    }

    @Property(tries = 200)
    void reorderingRootFieldsNeverChangesTheVerdict(@ForAll("operations") Operation op,
                                                   @ForAll("fences") GraphqlFence fence, @ForAll long seed) {
        List<RootCall> shuffled = new ArrayList<>(op.calls());
        Collections.shuffle(shuffled, new Random(seed));
        Operation reordered = new Operation(op.type(), op.name(), shuffled);
        sameVerdict(judge(fence, render(op, false, 0, seed)), judge(fence, render(reordered, false, 0, seed)));
    }

    @Property(tries = 200)
    void aRootFieldOutsideFieldsAlwaysDenies(@ForAll("operations") Operation op, @ForAll("fences") GraphqlFence fence,
                                            @ForAll long seed) {
        List<RootCall> calls = new ArrayList<>(op.calls());
        String outside = FIELD_POOL.stream().filter(f -> !fence.fields().contains(f)).findFirst().orElse("unlisted");
        calls.add(new Random(seed).nextInt(calls.size() + 1), new RootCall(outside, null, false));
        FenceResult result = judge(fence, render(new Operation(op.type(), op.name(), calls), seed % 2 == 0,
                (int) (seed & 1), seed));
        assertThat(result.allowed()).isFalse();
    }

    @Property(tries = 100)
    void aFenceAdmitsWhatItDescribes(@ForAll("operations") Operation op, @ForAll long seed) {
        // Control: the generator does produce allowed operations, so the properties above are not vacuous.
        List<String> fields = op.calls().stream().map(RootCall::name).distinct().toList();
        GraphqlFence admitting = fence(OperationType.ANY, null, fields);
        assertThat(judge(admitting, render(op, true, 1, seed)).allowed()).isTrue();
    }
}

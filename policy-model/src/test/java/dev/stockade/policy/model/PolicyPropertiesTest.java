package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.integers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;

/** Round trips and error pointers on generated policies (QuickTheories, fixed seed: reruns are identical). */
class PolicyPropertiesTest {
    private static final long SEED = 0x5EED_0001L;

    private static QuickTheory qt(int examples) {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(examples);
    }

    @Test
    void readOfWrittenYamlIsIdentity() {
        qt(300).forAll(PolicyGens.policy()).checkAssert(policy -> {
            ReadResult r = PolicyReader.read("p.yaml", PolicyWriter.toYaml(policy));
            assertThat(r.problems()).isEmpty();
            assertThat(r.policy()).isEqualTo(policy);
        });
    }

    @Test
    void readOfWrittenJsonIsIdentity() {
        qt(300).forAll(PolicyGens.policy()).checkAssert(policy -> {
            ReadResult r = PolicyReader.read("p.json", PolicyWriter.toJson(policy));
            assertThat(r.problems()).isEmpty();
            assertThat(r.policy()).isEqualTo(policy);
            assertThat(PolicyWriter.toTree(r.policy())).isEqualTo(PolicyWriter.toTree(policy));
        });
    }

    @Test
    void generatedPoliciesValidateClean() {
        qt(300).forAll(PolicyGens.policy()).checkAssert(policy -> {
            ReadResult r = PolicyReader.fromTree(PolicyWriter.toTree(policy), null, "p", null);
            assertThat(r.problems()).isEmpty();
            assertThat(r.valid()).isTrue();
        });
    }

    /** A mutation: where it breaks the document and how. */
    record Mutation(String pointer, Consumer<ObjectNode> apply) {
    }

    static List<Mutation> mutations(ObjectNode tree) {
        List<Mutation> m = new ArrayList<>();
        m.add(new Mutation("/name", t -> t.put("name", " ")));
        m.add(new Mutation("/name", t -> t.remove("name")));
        m.add(new Mutation("/name", t -> t.put("name", 3)));
        m.add(new Mutation("/networkDefaultVerdict", t -> t.put("networkDefaultVerdict", "maybe")));
        m.add(new Mutation("/allowedDomain", t -> t.putArray("allowedDomain")));
        m.add(new Mutation("/env/1X", t -> t.putObject("env").put("1X", "v")));
        m.add(new Mutation("/description", t -> t.putNull("description")));
        JsonNode domains = tree.get("allowedDomains");
        if (domains != null && !domains.isEmpty()) {
            m.add(new Mutation("/allowedDomains/0/pattern", t -> entry(t).put("pattern", "a..com")));
            m.add(new Mutation("/allowedDomains/0/verdict", t -> entry(t).put("verdict", "alow")));
            m.add(new Mutation("/allowedDomains/0/binary", t -> entry(t).putArray("binary")));
            m.add(new Mutation("/allowedDomains/0/binaries", t -> entry(t).putArray("binaries").add("git")));
            m.add(new Mutation("/allowedDomains/0/rules", t -> entry(t).putArray("rules")));
            m.add(new Mutation("/allowedDomains/0/rules/0", t -> entry(t).putArray("rules").addObject()));
            m.add(new Mutation("/allowedDomains/0/rules/0/graphql/operationType",
                    t -> entry(t).putArray("rules").addObject().putObject("graphql").put("operationType", "read")));
        }
        JsonNode connectors = tree.get("connectors");
        if (connectors != null && !connectors.isEmpty()) {
            m.add(new Mutation("/connectors/0/connectorId",
                    t -> ((ObjectNode) t.get("connectors").get(0)).put("connectorId", "not-a-uuid")));
            m.add(new Mutation("/connectors/0/allowedTools",
                    t -> ((ObjectNode) t.get("connectors").get(0)).putArray("allowedTools").add("*")));
        }
        return m;
    }

    private static ObjectNode entry(ObjectNode t) {
        return (ObjectNode) ((ArrayNode) t.get("allowedDomains")).get(0);
    }

    @Test
    void aMutatedFieldIsReportedAtItsPointer() {
        qt(400).forAll(PolicyGens.policy(), integers().between(0, 1000)).checkAssert(
                PolicyPropertiesTest::aMutatedFieldIsReportedAtItsPointer);
    }

    private static void aMutatedFieldIsReportedAtItsPointer(Policy policy, int pick) {
        ObjectNode tree = PolicyWriter.toTree(policy);
        List<Mutation> ms = mutations(tree);
        Mutation mutation = ms.get(pick % ms.size());
        mutation.apply().accept(tree);
        ReadResult r = PolicyReader.fromTree(tree, null, "p", null);
        assertThat(r.valid()).isFalse();
        assertThat(r.policy()).isNull();
        assertThat(r.problems()).anySatisfy(p -> assertThat(
                p.pointer().equals(mutation.pointer()) || p.pointer().startsWith(mutation.pointer() + "/"))
                .as("problem %s for mutation at %s", p, mutation.pointer()).isTrue());
    }
}

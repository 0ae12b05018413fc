package dev.stockade.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.PolicyWriter;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@code policy fmt} on generated policies written in random styles: the policy read back is the one written,
 * formatting twice changes nothing, no comment is lost, and top-level keys come in the spec's order.
 */
class PolicyFormatPropertyTest {
    private static final long SEED = 0x5EED_F0A7L;
    /** spec "Policy", in its order: written out here, not taken from {@link KeyOrder}. */
    private static final List<String> SPEC_ORDER = List.of("name", "description", "networkDefaultVerdict",
            "networkDefaultTransport", "allowedDomains", "credentials", "connectors", "integrations",
            "managedInference", "piiMasking", "env");

    private static QuickTheory qt() {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(300);
    }

    @Test
    void formattingKeepsThePolicyAndEveryCommentAndIsIdempotent() {
        qt().forAll(policies(), longs().all()).checkAssert((policy, style) -> {
            MessyYaml.Written messy = MessyYaml.write(PolicyWriter.toTree(policy), style);
            ReadResult before = PolicyReader.read("p.yaml", messy.text());
            assertThat(before.policy()).as(messy.text()).isEqualTo(policy);

            FormatOutcome outcome = PolicyFormat.format("p.yaml", messy.text());
            assertThat(outcome).as(messy.text()).isInstanceOf(FormatOutcome.Formatted.class);
            String formatted = ((FormatOutcome.Formatted) outcome).text();
            ReadResult after = PolicyReader.read("p.yaml", formatted);
            assertThat(after.problems()).as(formatted).isEmpty();
            assertThat(after.policy()).as(formatted).isEqualTo(before.policy());
            for (int c = 0; c < messy.comments(); c++) {
                assertThat(formatted).as(messy.text()).containsPattern("# c" + c + "(\\D|$)");
            }
            assertThat(PolicyFormat.format("p.yaml", formatted)).as(formatted)
                    .isEqualTo(new FormatOutcome.Formatted(formatted, false));
            assertThat(topLevelKeys(after.tree())).isSortedAccordingTo(
                    (a, b) -> Integer.compare(SPEC_ORDER.indexOf(a), SPEC_ORDER.indexOf(b)));
        });
    }

    /** The document's own key order: the reader's tree keeps it. */
    private static List<String> topLevelKeys(JsonNode tree) {
        List<String> keys = new ArrayList<>();
        Iterator<String> names = tree.fieldNames();
        names.forEachRemaining(keys::add);
        return keys;
    }

    private static Gen<String> word() {
        return lists().of(arbitrary().pick(List.of('a', 'b', 'x', 'y', 'z', 'e', 'o', 'n', 's'))).ofSizeBetween(1, 6)
                .map(cs -> cs.stream().map(String::valueOf).reduce("", String::concat));
    }

    /** Text people write in descriptions: YAML's indicators, quotes, a newline, a non-ASCII letter, `yes`. */
    private static Gen<String> text() {
        return Generate.oneOf(word(), arbitrary().pick("yes", "no", "on", "null", "true", "123", "1.5", "~", "",
                "a: b", "x # y", "it's \"quoted\"", "line one\nline two", "café", "*.wild", "- dash", "@at",
                "  padded  ", "{flow}", "[list]", "back\\slash", "ok"));
    }

    private static <T> Gen<T> sometimes(Gen<T> gen) {
        return gen.toOptionals(50).map(o -> o.orElse(null));
    }

    private static Gen<Rule> rule() {
        Gen<GraphqlFence> fence = arbitrary().enumValues(OperationType.class).zip(sometimes(word()),
                sometimes(lists().of(word()).ofSizeBetween(1, 3).map(l -> List.copyOf(new java.util.LinkedHashSet<>(l)))),
                (t, n, f) -> new GraphqlFence(t, n, f, null));
        return sometimes(arbitrary().pick("GET", "POST")).zip(sometimes(word().map(w -> "/" + w + "/**")),
                sometimes(fence), (m, p, g) -> m == null && p == null && g == null ? Rule.of("GET", null) : new Rule(m, p, g));
    }

    private static Gen<DomainEntry> entry() {
        Gen<String> pattern = Generate.oneOf(word().map(w -> w + ".com"), word().map(w -> "*." + w + ".org"));
        Gen<DomainEntry> allow = pattern.zip(sometimes(arbitrary().enumValues(Transport.class)),
                sometimes(lists().of(rule()).ofSizeBetween(1, 3)), sometimes(text()),
                sometimes(lists().of(word().map(w -> "/usr/bin/" + w)).ofSizeBetween(1, 2)),
                (p, t, r, d, b) -> new DomainEntry(p, Verdict.ALLOW, t, null, d, r, b));
        Gen<DomainEntry> deny = pattern.zip(sometimes(text()), (p, d) -> new DomainEntry(p, Verdict.DENY, null, null,
                d, null, null));
        return Generate.oneOf(allow, allow, deny);
    }

    private static Gen<Policy> policies() {
        Gen<Map<String, String>> env = lists().of(word().map(w -> w.toUpperCase(java.util.Locale.ROOT)).zip(text(), Map::entry))
                .ofSizeBetween(1, 3).map(l -> {
                    Map<String, String> m = new LinkedHashMap<>();
                    l.forEach(e -> m.put(e.getKey(), e.getValue()));
                    return m;
                });
        return word().zip(sometimes(text()), sometimes(arbitrary().enumValues(Verdict.class)),
                sometimes(lists().of(entry()).ofSizeBetween(0, 4)), sometimes(env),
                (n, d, v, domains, e) -> new Policy(n, d, v, null, domains, null, null, null, null, null, e));
    }

    @Test
    void plainSafeTextReadsTheSameUnquoted() {
        qt().forAll(text(), integers().between(0, 1)).checkAssert((value, unused) -> {
            if (CanonicalTree.plainSafe(value)) {
                ReadResult read = PolicyReader.read("p.yaml", "name: n\ndescription: " + value + "\n");
                assertThat(read.policy().description()).isEqualTo(value);
            }
        });
    }
}

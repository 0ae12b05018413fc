package dev.stockade.policy.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.stockade.policy.compiler.internal.UnreachableEntries;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;

/**
 * Resolution, compilation and lint stay near-linear in what users write, or refuse with a documented
 * bound: crossing wildcards, many rows, many entries.
 */
class HostileResolutionTest {

    private static Policy policy(String name, int count, IntFunction<String> pattern) {
        List<DomainEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(DomainEntry.allow(pattern.apply(i)));
        }
        return Policy.named(name).withAllowedDomains(entries);
    }

    @Test
    void crossingWildcardsAreRefusedAtTheirBoundNotAfterAMillionRows() {
        Policy a = policy("a", 1000, i -> "a" + i + "-*.example.com");
        Policy b = policy("b", 1000, i -> "*-b" + i + ".example.com");
        assertThatThrownBy(() -> Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(a, b)))
                .isInstanceOf(ResolutionTooLarge.class)
                .hasMessageContaining("more than " + ResolutionTooLarge.MAX_WILDCARD_ROWS)
                .hasMessageContaining("in-label wildcards");
    }

    @Test
    void crossingWildcardsUnderTheBoundResolveCompileAndDecide() {
        Policy a = policy("a", 99, i -> "a" + i + "-*.example.com");
        Policy b = policy("b", 99, i -> "*-b" + i + ".example.com");
        Resolution r = Resolver.resolve(InstallFacts.defaults(), List.of(), List.of(a, b));
        assertThat(r.effective().entries()).hasSize(99 * 99 + 2 * 99);
        DecisionProgram program = PolicyCompiler.compile(r, CompileOptions.defaults());
        assertThat(program.decideConnection(EgressRequest.connection("https", "a7-x-b3.example.com", 443, null,
                null)).allowed()).isTrue();
        assertThat(program.decideConnection(EgressRequest.connection("https", "q.example.com", 443, null,
                null)).allowed()).isFalse();
    }

    @Test
    void moreRowsThanTheBoundAreRefused() {
        List<Policy> grants = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            int layer = k;
            grants.add(policy("p" + k, 26_000, i -> "h" + layer + "-" + i + ".example.com"));
        }
        assertThatThrownBy(() -> Resolver.resolve(InstallFacts.defaults(), List.of(), grants))
                .isInstanceOf(ResolutionTooLarge.class)
                .hasMessageContaining("more than " + ResolutionTooLarge.MAX_ROWS + " effective rows");
    }

    @Test
    void theUnreachableCheckIndexesEntriesInsteadOfComparingEveryPair() {
        List<DomainEntry> entries = new ArrayList<>();
        entries.add(DomainEntry.allow("*.e"));
        for (int i = 1; i < 27_870; i++) {
            entries.add(DomainEntry.allow("x" + i + ".e"));
        }
        List<Problem> problems = PolicyLint.analyse(Policy.named("p").withAllowedDomains(entries));
        assertThat(problems).hasSize(27_869).allMatch(p -> p.code().equals("entry-unreachable"));
    }

    @Test
    void theInLabelWildcardComparisonsGiveUpAtTheirBoundAndSaySo() {
        Policy p = policy("p", 10_000, i -> i < 5_000 ? "a" + i + "*.example.com" : "q" + i + ".example.com");
        List<Problem> problems = PolicyLint.analyse(p);
        assertThat(problems).extracting(Problem::code).containsExactly("lint-incomplete");
    }

    /** The indexed check finds exactly what comparing every pair finds, on random small policies. */
    @Test
    void theIndexedCheckAgreesWithComparingEveryPair() {
        List<String> pool = List.of("a.com", "b.a.com", "c.b.a.com", "*.a.com", "*.b.a.com", "*", "x*.a.com",
                "b*.a.com", "*-b.a.com", "a*.b.a.com", "10.0.0.1", "*.com", "A.COM", "b.A.com", "*.0.0.1", "x.org");
        QuickTheory.qt().withFixedSeed(0x5EED_0006L).withExamples(2000)
                .forAll(lists().of(arbitrary().pick(pool)).ofSizeBetween(1, 8)).checkAssert(texts -> {
                    List<DomainPattern> patterns = texts.stream().map(DomainPattern::parse).toList();
                    int[] indexed = new int[patterns.size()];
                    assertThat(UnreachableEntries.of(patterns, indexed).complete()).isTrue();
                    for (int i = 0; i < patterns.size(); i++) {
                        int naive = -1;
                        for (int j = 0; j < i && patterns.get(i).kind() != DomainPattern.Kind.INVALID; j++) {
                            if (DomainPattern.covers(patterns.get(j), List.of(patterns.get(i)))) {
                                naive = j;
                                break;
                            }
                        }
                        assertThat(indexed[i]).as("%s entry %d", texts, i).isEqualTo(naive);
                    }
                });
    }
}

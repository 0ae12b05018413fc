package dev.stockade.policy.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DecisionProgram#entryIndexOf}: the effective row a request reaches, for tools that need more than the decider. */
class EntryIndexOfTest {
    private static final EffectivePolicy POLICY = new EffectivePolicy(List.of(
            row("blocked.example.com", Verdict.DENY),
            row("*.example.com", Verdict.ALLOW),
            row("api.example.org:8443", Verdict.ALLOW)), Verdict.DENY, null, ReasonCode.DEFAULT_DENY);

    private static EffectiveEntry row(String pattern, Verdict verdict) {
        DomainEntry entry = verdict == Verdict.ALLOW ? DomainEntry.allow(pattern) : DomainEntry.deny(pattern);
        EntryRef ref = new EntryRef("p", pattern.startsWith("blocked") ? 0 : pattern.startsWith("*") ? 1 : 2, false);
        return new EffectiveEntry(List.of(pattern), verdict, verdict == Verdict.ALLOW ? Transport.UPSTREAM : null,
                verdict == Verdict.ALLOW ? ReasonCode.ENTRY_ALLOW : ReasonCode.ENTRY_DENY, ref,
                List.of(new EffectiveComponent(ref, entry)));
    }

    private static EgressRequest get(String host, int port) {
        return new EgressRequest("https", host, port, host, null, "GET", "/", null, java.util.Map.of(), null, false);
    }

    @Test
    void namesTheFirstMatchingRowAsTheDecisionDoes() {
        DecisionProgram program = DecisionProgram.compile(POLICY, null);
        assertThat(program.entryIndexOf(get("blocked.example.com", 443))).isZero();
        assertThat(program.entryIndexOf(get("api.example.com", 443))).isEqualTo(1);
        assertThat(program.entryIndexOf(get("api.example.org", 8443))).isEqualTo(2);
        assertThat(program.decide(get("api.example.com", 443)).entryIndex()).isEqualTo(1);
    }

    @Test
    void isMinusOneWhenTheDefaultOrAnotherPortOrBadInputDecides() {
        DecisionProgram program = DecisionProgram.compile(POLICY, null);
        assertThat(program.entryIndexOf(get("elsewhere.net", 443))).isEqualTo(-1);
        assertThat(program.entryIndexOf(get("api.example.org", 443))).isEqualTo(-1);
        assertThat(program.entryIndexOf(get("a..example.com", 443))).isEqualTo(-1);
        assertThat(program.entryIndexOf(null)).isEqualTo(-1);
        assertThat(DecisionProgram.denyAll(ReasonCode.HALTED, "halted").entryIndexOf(get("api.example.com", 443)))
                .isEqualTo(-1);
    }
}

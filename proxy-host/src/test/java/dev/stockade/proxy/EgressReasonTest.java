package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.eval.ReasonCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** One vocabulary of reasons: every core reason has its twin, every proxy reason its row in docs/proxy.md. */
class EgressReasonTest {

    @Test
    void everyCoreReasonHasExactlyOneTwinWithTheSameCode() {
        for (ReasonCode core : ReasonCode.values()) {
            EgressReason twin = EgressReason.of(core);
            assertThat(twin.core()).as("twin of %s", core).isEqualTo(core);
            assertThat(twin.code()).isEqualTo(core.code());
            assertThat(Arrays.stream(EgressReason.values()).filter(r -> r.core() == core)).hasSize(1);
        }
    }

    @Test
    void codesAreUniqueAndReadBack() {
        for (EgressReason r : EgressReason.values()) {
            assertThat(EgressReason.fromCode(r.code())).isSameAs(r);
        }
        assertThat(EgressReason.fromCode("no-such-reason")).isNull();
        assertThat(EgressReason.fromCode(null)).isNull();
    }

    @Test
    void everyProxyReasonHasARowInTheProxyDocs() throws Exception {
        String text = Files.readString(Path.of("..", "docs", "proxy.md"));
        Arrays.stream(EgressReason.values()).filter(EgressReason::proxyOwn).forEach(r ->
                assertThat(text).as("docs/proxy.md documents `%s`", r.code()).contains("| `" + r.code() + "` |"));
    }
}

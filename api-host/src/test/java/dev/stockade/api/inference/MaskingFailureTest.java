package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code failOpen} both ways, with a masking timeout (1 ms) that a request of a few hundred kilobytes cannot meet:
 * failing closed, the request is not sent and the caller gets 503; failing open, the original goes out and the call
 * is audited {@code piiMaskingSkipped} with the reason.
 */
@MicronautTest(transactional = false)
class MaskingFailureTest extends MaskingPlatformTest {
    /** Prose long enough that no scan of it finishes within the timeout, ending with a value to mask. */
    private static final String LONG_PROMPT = "The quarterly report covers shipping, invoices and the roadmap. "
            .repeat(4_000) + LlmMaskingTest.PROMPT;

    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new java.util.HashMap<>(super.extraProperties());
        p.put("inference.masking.timeout", "1ms");
        return p;
    }

    @Test
    void failingClosedAMaskingTimeoutSendsNothingAndAnswers503() {
        grant(Map.of("types", List.of("EMAIL", "PHONE", "CREDIT_CARD")));
        Http.Response r = postChat(LONG_PROMPT);
        assertThat(PlatformTest.problem(r, 503)).isEqualTo("pii_masking_unavailable");
        assertThat(r.body().path("detail").asText()).contains("not sent");
        assertThat(upstream.received).isEmpty();
        JsonNode entry = awaitAudit("denied").get(0).path("details");
        assertThat(entry.path("piiMasking").path("status").asText()).isEqualTo("refused");
        assertThat(entry.path("piiMasking").path("failure").asText()).isEqualTo("timeout");
    }

    @Test
    void failingOpenAMaskingTimeoutSendsTheOriginalAndAuditsTheSkip() {
        grant(Map.of("types", List.of("EMAIL", "PHONE", "CREDIT_CARD"), "failOpen", true));
        Http.Response r = postChat(LONG_PROMPT);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(upstream.received.get(0).raw()).contains(LlmMaskingTest.EMAIL);
        JsonNode entry = awaitAudit("success").get(0).path("details");
        assertThat(entry.path("piiMaskingSkipped").asBoolean()).isTrue();
        assertThat(entry.path("piiMasking").path("skipped").asText()).isEqualTo("fail-open");
        assertThat(entry.path("piiMasking").path("failure").asText()).isEqualTo("timeout");
    }
}

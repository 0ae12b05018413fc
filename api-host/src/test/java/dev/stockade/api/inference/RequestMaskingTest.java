package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.inference.ForwardBody;
import dev.stockade.inference.WireFormat;
import dev.stockade.pii.PiiType;
import dev.stockade.policy.model.MaskingType;
import dev.stockade.policy.model.PiiMasking;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The masking stage on its own, with the real engine: a Bedrock InvokeModel body of another model family is a
 * masking failure (its text would leave unscanned), failing closed or open as the policy says; an Anthropic one is
 * masked; a cut by the scan budget is reported per call; one worker serves every call of the same block; a policy block becomes the engine's settings name for name.
 */
class RequestMaskingTest {
    private static final String EMAIL = "jane.doe@example.org";
    private final RequestMasking masking = new RequestMasking(new MaskingConfig(Duration.ofSeconds(30)));

    @AfterEach
    void close() {
        masking.close();
    }

    @Test
    void aBedrockBodyOfAnotherModelFamilyIsNotSentWhenFailingClosed() {
        CallRecords.Context ctx = context();
        ForwardBody llama = body("{\"prompt\":\"mail " + EMAIL + "\",\"max_gen_len\":100}");
        assertThatThrownBy(() -> masking.mask(block(false), WireFormat.BEDROCK_INVOKE, llama, ctx))
                .isInstanceOfSatisfying(ApiProblem.class, p -> assertThat(p.code())
                        .isEqualTo(ProblemCode.PII_MASKING_UNAVAILABLE));
        assertThat(ctx.masking().status()).isEqualTo(MaskingReport.Status.REFUSED);
        assertThat(ctx.masking().failure()).isEqualTo(MaskingReport.Failure.INVALID_BODY);
    }

    @Test
    void aBedrockBodyOfAnotherModelFamilyGoesUnmaskedAndIsReportedWhenFailingOpen() {
        CallRecords.Context ctx = context();
        ForwardBody llama = body("{\"prompt\":\"mail " + EMAIL + "\"}");
        RequestMasking.Outcome out = masking.mask(block(true), WireFormat.BEDROCK_INVOKE, llama, ctx);
        assertThat(out.body()).isSameAs(llama);
        assertThat(out.restorer()).isNull();
        assertThat(ctx.masking().leftUnmasked()).isTrue();
        assertThat(ctx.masking().skipped()).isEqualTo(MaskingReport.SkipReason.FAIL_OPEN);
    }

    @Test
    void anAnthropicBedrockBodyIsMaskedAndCounted() {
        CallRecords.Context ctx = context();
        ForwardBody claude = body("{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":10,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"mail " + EMAIL + "\"}]}");
        RequestMasking.Outcome out = masking.mask(block(false), WireFormat.BEDROCK_INVOKE, claude, ctx);
        assertThat(new String(out.body().bytes(), StandardCharsets.UTF_8)).doesNotContain(EMAIL).contains("[EMAIL_");
        assertThat(out.body().rewritten()).isTrue();
        assertThat(ctx.masking().masked()).isEqualTo(Map.of(PiiType.EMAIL, 1));
    }

    @Test
    void aFieldOverTheScanBudgetIsCutAndTheCutIsReportedForTheCall() {
        CallRecords.Context ctx = context();
        String prose = "the quarterly report covers shipping and invoices ".repeat(90_000); // 4.5 M characters
        ForwardBody big = body("{\"model\":\"claude-haiku-4-5\",\"max_tokens\":10,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"" + prose + "\"}]}");
        masking.mask(block(false), WireFormat.ANTHROPIC_MESSAGES, big, ctx);
        assertThat(ctx.masking().truncations()).singleElement().satisfies(t -> {
            assertThat(t.pointer()).isEqualTo("/messages/0/content");
            assertThat(t.originalChars()).isEqualTo(prose.length());
            assertThat(t.keptChars()).isLessThanOrEqualTo(4 << 20);
        });
    }

    @Test
    void oneWorkerServesEveryCallOfTheSameBlock() {
        PiiMasking block = block(false);
        assertThat(masking.workerFor(RequestMasking.settings(block)))
                .isSameAs(masking.workerFor(RequestMasking.settings(new PiiMasking(List.of(MaskingType.EMAIL),
                        false, false))));
    }

    @Test
    void aPolicyBlockBecomesTheEngineSettingsNameForName() {
        var settings = RequestMasking.settings(new PiiMasking(List.of(MaskingType.values()), true, false));
        assertThat(settings.types()).isEqualTo(EnumSet.allOf(PiiType.class));
        assertThat(settings.unmaskResponses()).isTrue();
        assertThat(settings.failOpen()).isFalse();
    }

    private static PiiMasking block(boolean failOpen) {
        return new PiiMasking(List.of(MaskingType.EMAIL), false, failOpen);
    }

    private static ForwardBody body(String json) {
        return new ForwardBody(json.getBytes(StandardCharsets.UTF_8), false, false);
    }

    private static CallRecords.Context context() {
        LlmProxy.Call call = new LlmProxy.Call(null, null, null, "POST", null, null, Map.of(), new byte[0]);
        return new CallRecords.Context(call, null, Instant.EPOCH);
    }
}

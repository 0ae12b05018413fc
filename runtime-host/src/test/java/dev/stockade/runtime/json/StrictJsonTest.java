package dev.stockade.runtime.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The reader's refusals name where the input went wrong, quote at most a clipped key, and accept valid text. */
class StrictJsonTest {
    private static MalformedJson refusal(byte[] body) {
        try {
            StrictJson.object(body);
        } catch (MalformedJson e) {
            return e;
        }
        throw new AssertionError("accepted: " + new String(body, StandardCharsets.UTF_8));
    }

    private static MalformedJson refusal(String body) {
        return refusal(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void invalidUtf8NamesTheByteOffsetOfTheFirstBadByte() {
        byte[] body = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0xA9, (byte) 0xFF, '"', '}'};
        MalformedJson e = refusal(body);
        assertThat(e.reason()).isEqualTo(MalformedJson.Reason.INVALID_UNICODE);
        assertThat(e.getMessage()).isEqualTo("is not valid UTF-8 at byte offset 8");
        assertThat(refusal(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xE2, (byte) 0x82}).getMessage())
                .startsWith("is not valid UTF-8 at byte offset 6");
    }

    @Test
    void aDuplicateKeyIsNamedWithItsPointerAndClipped() {
        MalformedJson e = refusal("{\"outer\":{\"k\":1,\"k\":2}}");
        assertThat(e.reason()).isEqualTo(MalformedJson.Reason.DUPLICATE_KEY);
        assertThat(e.getMessage()).isEqualTo("names the key `k` twice in one object (at /outer/k)");
        String longKey = "s".repeat(500);
        MalformedJson clipped = refusal("{\"" + longKey + "\":1,\"" + longKey + "\":2}");
        assertThat(clipped.getMessage()).contains("(500 characters)").doesNotContain("s".repeat(65));
    }

    @Test
    void textAfterTheValueIsRefusedWithItsPosition() {
        assertThat(refusal("{\"a\":1}\n  {\"b\":2}").getMessage())
                .isEqualTo("has text after the JSON value at line 2, column 3");
        assertThat(refusal("{} // comment").reason()).isEqualTo(MalformedJson.Reason.TRAILING_CONTENT);
        assertThat(refusal("{}]").reason()).isEqualTo(MalformedJson.Reason.TRAILING_CONTENT);
    }

    @Test
    void loneSurrogatesAreRefusedInValuesAndKeysButPairsAreText() throws Exception {
        assertThat(refusal("{\"a\":[\"ok\",\"\\udc00\"]}").reason()).isEqualTo(MalformedJson.Reason.INVALID_UNICODE);
        assertThat(refusal("{\"\\ud800x\":1}").getMessage()).contains("key");
        assertThat(StrictJson.object("{\"smile\":\"\\ud83d\\ude00 \u00e9\"}").path("smile").asText())
                .isEqualTo("\uD83D\uDE00 é");
    }

    @Test
    void nestingBeyondTheReadersLimitIsInvalidNotAStackOverflow() {
        String deep = "{\"a\":" + "[".repeat(5000) + "]".repeat(5000) + "}";
        MalformedJson e = refusal(deep);
        assertThat(e.reason()).isEqualTo(MalformedJson.Reason.INVALID_JSON);
        assertThat(e.getMessage()).contains("limits");
    }

    @Test
    void whatIsNotAnObjectSaysWhatItIs() {
        assertThat(refusal("[1]").getMessage()).isEqualTo("must be a JSON object, not an array");
        assertThat(refusal("  ").reason()).isEqualTo(MalformedJson.Reason.EMPTY);
        assertThatThrownBy(() -> StrictJson.object("12")).hasMessage("must be a JSON object, not a number");
    }
}

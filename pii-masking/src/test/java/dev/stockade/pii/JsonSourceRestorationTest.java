package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Restoring into JSON source text (a tool call's arguments): a value that holds a quote, a backslash or a control
 * character goes in JSON-escaped, so the JSON a client assembles from the fragments parses and gives the value back,
 * wherever the stream was split. The expected values are the caller's own, never one the restorer produced.
 */
class JsonSourceRestorationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AWKWARD = "Zoë \"Z\" O\\Brien\n\t\u0001 ✉";
    private static final String PERSON = "[PERSON_0123456789]";
    private static final String EMAIL = "[EMAIL_abcdefghij]";
    private static final Restorer TABLE = new Restorer(Map.of(PERSON, AWKWARD, EMAIL, "jane@example.org"));
    /** Tool input JSON as a model writes it, with the placeholders inside string literals. */
    private static final String SOURCE = "{\"to\": \"" + PERSON + "\", \"cc\": [\"" + EMAIL + "\", \"x\"], "
            + "\"note\": \"for " + PERSON + " only\"}";

    @Test
    void aValueThatNeedsEscapingGoesIntoJsonSourceEscapedAndParsesBack() throws IOException {
        JsonNode input = JSON.readTree(TABLE.restore(SOURCE, TextForm.JSON));
        assertThat(input.path("to").asText()).isEqualTo(AWKWARD);
        assertThat(input.path("cc").get(0).asText()).isEqualTo("jane@example.org");
        assertThat(input.path("note").asText()).isEqualTo("for " + AWKWARD + " only");
        assertThat(TABLE.restore(PERSON)).as("plain text takes the value as it is").isEqualTo(AWKWARD);
    }

    @Test
    void jsonSourceSplitAtEveryPairOfPositionsParsesToTheOriginalValues() throws IOException {
        for (int i = 0; i <= SOURCE.length(); i++) {
            for (int j = i; j <= SOURCE.length(); j += 3) {
                StreamRestorer r = TABLE.stream(TextForm.JSON);
                String out = r.push(SOURCE.substring(0, i)) + r.push(SOURCE.substring(i, j))
                        + r.push(SOURCE.substring(j)) + r.finish();
                JsonNode input = JSON.readTree(out);
                assertThat(input.path("to").asText()).as("split at %d and %d", i, j).isEqualTo(AWKWARD);
                assertThat(input.path("note").asText()).isEqualTo("for " + AWKWARD + " only");
            }
        }
    }

    @Test
    void heldTextAndAnotherRequestsPlaceholderComeOutAsTheyWentIn() {
        StreamRestorer r = TABLE.stream(TextForm.JSON);
        String other = "[PERSON_vvvvvvvvvv]";
        String out = r.push("{\"a\": \"" + other.substring(0, 9)) + r.push(other.substring(9) + "\", \"b\": \"[PER");
        assertThat(out + r.finish()).isEqualTo("{\"a\": \"" + other + "\", \"b\": \"[PER");
    }

    @Test
    void aRealAddressWithATabIsEscapedInJsonSource() throws IOException {
        MaskedText masked = PiiMaskerTest.ALL.mask("Ship it to 221\tBaker Street please");
        assertThat(masked.text()).contains("[ADDRESS_").doesNotContain("Baker");
        String source = "{\"where\": " + JSON.writeValueAsString(masked.text()) + "}";
        String restored = masked.restorer().restore(source, TextForm.JSON);
        assertThat(restored).doesNotContain("\t");
        assertThat(JSON.readTree(restored).path("where").asText()).isEqualTo("Ship it to 221\tBaker Street please");
    }

    @Test
    void aWholeAnswersArgumentsStringHoldingJsonIsRestoredAsJsonSource() throws Exception {
        Map<String, Object> answer = Map.of("choices", List.of(Map.of("message", Map.of("content", "see " + PERSON,
                "tool_calls", List.of(Map.of("function", Map.of("name", "send", "arguments", SOURCE)))))));
        JsonNode out = JSON.readTree(TABLE.restoreJson(JSON.writeValueAsBytes(answer), WireFormat.OPENAI_CHAT));
        JsonNode message = out.path("choices").get(0).path("message");
        assertThat(message.path("content").asText()).isEqualTo("see " + AWKWARD);
        JsonNode input = JSON.readTree(message.path("tool_calls").get(0).path("function").path("arguments").asText());
        assertThat(input.path("to").asText()).isEqualTo(AWKWARD);
        assertThat(input.path("cc").get(0).asText()).isEqualTo("jane@example.org");
    }

    @Test
    void anArgumentsStringThatIsNotJsonIsRestoredAsText() throws Exception {
        byte[] answer = JSON.writeValueAsBytes(Map.of("arguments", "call " + PERSON + " {"));
        JsonNode out = JSON.readTree(TABLE.restoreJson(answer, WireFormat.OPENAI_RESPONSES));
        assertThat(out.path("arguments").asText()).isEqualTo("call " + AWKWARD + " {");
        byte[] object = ("{\"arguments\": {\"to\": \"" + PERSON + "\"}}").getBytes(StandardCharsets.UTF_8);
        assertThat(JSON.readTree(TABLE.restoreJson(object, WireFormat.OPENAI_RESPONSES)).path("arguments").path("to")
                .asText()).isEqualTo(AWKWARD);
    }
}

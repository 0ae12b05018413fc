package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Over-budget fields are cut and reported, never passed on unmasked. */
class TruncationTest {

    private static final PiiMasker SMALL = PiiMasker.create(MaskingSettings.of(EnumSet.of(PiiType.EMAIL))
            .withBudget(new ScanBudget(1000, 256, 64)));

    @Test
    void aFieldOverTheBudgetIsCutAndReported() throws Exception {
        String first = "a".repeat(600) + " mail jane@example.com";
        String second = "word ".repeat(200) + "bob@example.com";
        String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + first + "\"},"
                + "{\"role\":\"user\",\"content\":\"" + second + "\"},{\"role\":\"user\",\"content\":\"x@example.com\"}]}";
        MaskedBody m = SMALL.mask(body.getBytes(StandardCharsets.UTF_8), WireFormat.OPENAI_CHAT);
        JsonNode n = new ObjectMapper().readTree(m.body());
        String out = new String(m.body(), StandardCharsets.UTF_8);
        assertThat(out).doesNotContain("jane@example.com", "bob@example.com", "x@example.com");
        assertThat(n.at("/messages/0/content").asText()).startsWith("a".repeat(600) + " mail [EMAIL_");
        assertThat(m.truncations()).hasSize(2);
        Truncation cut = m.truncations().get(0);
        assertThat(cut.pointer()).isEqualTo("/messages/1/content");
        assertThat(cut.originalChars()).isEqualTo(second.length());
        assertThat(cut.keptChars()).isLessThanOrEqualTo(1000 - first.length());
        assertThat(cut.cutChars()).isEqualTo(second.length() - cut.keptChars());
        assertThat(n.at("/messages/1/content").asText()).hasSize(cut.keptChars()).doesNotContain("@");
        assertThat(m.truncations().get(1)).isEqualTo(new Truncation("/messages/2/content", 13, 0));
        assertThat(n.at("/messages/2/content").asText()).isEmpty();
    }

    @Test
    void theCutFallsOnWhitespaceSoNoHalfValueSlipsThrough() {
        String text = "word ".repeat(198) + "jane.doe@example.com trailing text";
        MaskedText m = SMALL.mask(text);
        assertThat(m.truncations()).containsExactly(new Truncation("", text.length(), 989));
        assertThat(m.text()).doesNotContain("jane").endsWith("word");
    }

    @Test
    void withinBudgetNothingIsReported() {
        assertThat(SMALL.mask("short text, jane@example.com").truncations()).isEmpty();
    }
}

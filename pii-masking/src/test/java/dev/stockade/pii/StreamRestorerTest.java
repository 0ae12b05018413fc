package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.pii.internal.PlaceholderSyntax;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Streamed restoration: placeholders split anywhere, multi-byte characters split anywhere, bounded hold-back. */
class StreamRestorerTest {

    private static final MaskedText MASKED = PiiMaskerTest.ALL.mask(
            "Grüße an Maria Gonzalez — ruf (415) 867-5309 an, oder maria.gonzalez@example.com ✉");

    @Test
    void aPlaceholderSplitAtEveryBytePairIsRestored() {
        byte[] answer = ("Antwort: " + MASKED.text() + " Ende").getBytes(StandardCharsets.UTF_8);
        String expected = MASKED.restorer().restore("Antwort: " + MASKED.text() + " Ende");
        assertThat(expected).contains("Maria Gonzalez", "(415) 867-5309", "maria.gonzalez@example.com");
        for (int i = 0; i <= answer.length; i++) {
            for (int j = i; j <= answer.length; j += 7) {
                ByteStreamRestorer r = MASKED.restorer().byteStream();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.writeBytes(r.push(Arrays.copyOfRange(answer, 0, i)));
                out.writeBytes(r.push(Arrays.copyOfRange(answer, i, j)));
                out.writeBytes(r.push(Arrays.copyOfRange(answer, j, answer.length)));
                out.writeBytes(r.finish());
                assertThat(out.toString(StandardCharsets.UTF_8)).as("split at %d and %d", i, j).isEqualTo(expected);
            }
        }
    }

    @Test
    void byteByByteStreamingRestoresEverything() {
        byte[] answer = MASKED.text().getBytes(StandardCharsets.UTF_8);
        ByteStreamRestorer r = MASKED.restorer().byteStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : answer) {
            out.writeBytes(r.push(new byte[] {b}));
        }
        out.writeBytes(r.finish());
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(MASKED.restorer().restore(MASKED.text()));
    }

    @Test
    void holdBackNeverExceedsAPlaceholder() {
        StreamRestorer r = MASKED.restorer().stream();
        String text = MASKED.text() + "[PERSON_abc";
        for (char c : text.toCharArray()) {
            r.push(String.valueOf(c));
            assertThat(r.heldBack()).isLessThan(PlaceholderSyntax.MAX_LENGTH);
        }
        assertThat(r.finish()).isEqualTo("[PERSON_abc");
    }

    @Test
    void textThatOnlyLooksLikeAPlaceholderIsEmittedUnchanged() {
        StreamRestorer r = MASKED.restorer().stream();
        String out = r.push("see [EMAIL_zzzzzzzzzz] and [PERSON_0123456789] and [LINK] ") + r.finish();
        assertThat(out).isEqualTo("see [EMAIL_zzzzzzzzzz] and [PERSON_0123456789] and [LINK] ");
    }

    @Test
    void aPlaceholderFromAnotherRequestIsNotRestoredInAStream() {
        MaskedText other = PiiMaskerTest.ALL.mask("write to jane@example.com");
        StreamRestorer r = MASKED.restorer().stream();
        String out = r.push(other.text().substring(0, 15)) + r.push(other.text().substring(15)) + r.finish();
        assertThat(out).isEqualTo(other.text());
    }

    @Test
    void aFinishedStreamTakesNoMoreText() {
        StreamRestorer r = MASKED.restorer().stream();
        r.finish();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.push("x")).isInstanceOf(IllegalStateException.class);
    }
}

package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.pii.internal.PlaceholderSyntax;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Placeholders: stable within a request, unique and unguessable across requests, restorable. */
class PiiMaskerTest {

    static final PiiMasker ALL = PiiMasker.create(MaskingSettings.fromPolicy(null, true, false));
    private static final Pattern PLACEHOLDER = Pattern.compile("\\[([A-Z_]+)_([0-9a-v]{10})\\]");

    static List<String> placeholders(String text) {
        Matcher m = PLACEHOLDER.matcher(text);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    @Test
    void theSameValueGetsTheSamePlaceholderWithinARequest() {
        MaskedText m = ALL.mask("mail jane@example.com, then JANE@example.com again, and bob@example.com");
        List<String> p = placeholders(m.text());
        assertThat(p).hasSize(3);
        assertThat(p.get(0)).isEqualTo(p.get(1)).isNotEqualTo(p.get(2)).startsWith("[EMAIL_");
        assertThat(m.masked()).containsEntry(PiiType.EMAIL, 3);
    }

    @Test
    void aCardWrittenTwoWaysIsOneValue() {
        MaskedText m = ALL.mask("card 4539 1488 0343 6467 or 4539-1488-0343-6467");
        List<String> p = placeholders(m.text());
        assertThat(p).hasSize(2);
        assertThat(p.get(0)).isEqualTo(p.get(1)).startsWith("[CREDIT_CARD_");
    }

    @Test
    void placeholdersDifferAcrossRequests() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String p = placeholders(ALL.mask("call (415) 867-5309").text()).get(0);
            assertThat(seen.add(p)).as("placeholder %s repeated", p).isTrue();
        }
    }

    @Test
    void placeholdersHaveTheSyntaxTheRestorerReads() {
        String masked = ALL.mask("Dear Dr. Nkechi Adeyemi, ship 4539 1488 0343 6467 to 221B Baker Street, London").text();
        for (String p : placeholders(masked)) {
            assertThat(PlaceholderSyntax.match(p, 0)).isEqualTo(p.length());
            assertThat(p.length()).isLessThanOrEqualTo(PlaceholderSyntax.MAX_LENGTH);
        }
        assertThat(placeholders(masked)).extracting(p -> p.substring(1, p.lastIndexOf('_')))
                .containsExactly("PERSON", "CREDIT_CARD", "ADDRESS", "LOCATION");
    }

    @Test
    void restoringGivesBackTheOriginal() {
        String text = "Hi Maria, call (415) 867-5309 or write to maria.gonzalez@example.com.";
        MaskedText m = ALL.mask(text);
        assertThat(m.text()).doesNotContain("Maria", "867-5309", "maria.gonzalez");
        assertThat(m.restorer().restore(m.text())).isEqualTo(text);
    }

    @Test
    void anotherRequestsPlaceholderIsNotRestored() {
        MaskedText first = ALL.mask("write to jane@example.com");
        MaskedText second = ALL.mask("write to bob@example.com");
        assertThat(second.restorer().restore(first.text())).isEqualTo(first.text());
        assertThat(second.restorer().restore("[EMAIL_0000000000]")).isEqualTo("[EMAIL_0000000000]");
    }

    @Test
    void withoutUnmaskResponsesNothingIsRestored() {
        PiiMasker masker = PiiMasker.create(MaskingSettings.fromPolicy(List.of("EMAIL"), false, false));
        MaskedText m = masker.mask("write to jane@example.com");
        assertThat(m.restorer().restore(m.text())).isEqualTo(m.text()).doesNotContain("jane@example.com");
        assertThat(m.restorer()).isSameAs(Restorer.NONE);
    }

    @Test
    void onlyThePolicysTypesAreMasked() {
        PiiMasker emailOnly = PiiMasker.create(MaskingSettings.of(EnumSet.of(PiiType.EMAIL)));
        String masked = emailOnly.mask("Maria Gonzalez, (415) 867-5309, maria@example.com").text();
        assertThat(masked).startsWith("Maria Gonzalez, (415) 867-5309, [EMAIL_");
    }

    @Test
    void restoredJsonStaysValidWhenAValueHasQuotes() throws MaskingException {
        MaskedBody m = ALL.mask(("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"I'm Sean O'Neil, mail sean.o@example.ie\"}]}").getBytes(), WireFormat.OPENAI_CHAT);
        String answer = "{\"choices\":[{\"message\":{\"content\":\"Noted: " + placeholders(new String(m.body())).get(0) + "\"}}]}";
        String restored = new String(m.restorer().restoreJson(answer.getBytes(), WireFormat.OPENAI_CHAT));
        assertThat(restored).isEqualTo("{\"choices\":[{\"message\":{\"content\":\"Noted: Sean O'Neil\"}}]}");
    }
}

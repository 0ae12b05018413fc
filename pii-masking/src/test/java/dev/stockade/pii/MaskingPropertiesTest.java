package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Properties over generated texts: masking is invisible where there is nothing to mask, and nothing found survives. */
class MaskingPropertiesTest {

    private static final String PROSE = "abcdefghijklmnopqrstuvwxyz      .,;:!?-_/()[]{}\"'\n";

    private static Gen<String> prose() {
        return strings().betweenCodePoints(0, PROSE.length() - 1).ofLengthBetween(0, 300)
                .map(s -> s.codePoints().mapToObj(c -> String.valueOf(PROSE.charAt(c))).reduce("", String::concat));
    }

    @Test
    void textWithoutPersonalDataIsUnchangedAndRestoresToItself() {
        qt().withExamples(300).forAll(prose()).checkAssert(text -> {
            MaskedText m = PiiMaskerTest.ALL.mask(text);
            assertThat(m.text()).isEqualTo(text);
            assertThat(m.restorer().restore(m.text())).isEqualTo(text);
        });
    }

    @Test
    void maskThenRestoreIsTheIdentityOnAnyText() {
        qt().withExamples(200).forAll(strings().basicLatinAlphabet().ofLengthBetween(0, 200)).checkAssert(text -> {
            MaskedText m = PiiMaskerTest.ALL.mask(text);
            assertThat(m.restorer().restore(m.text())).isEqualTo(text);
        });
    }

    private static final List<String> VALUES = List.of("maria.gonzalez@example.com", "(415) 867-5309",
            "+44 20 7946 0958", "4539 1488 0343 6467", "5425-1877-4412-0933", "221B Baker Street", "Hauptstraße 27",
            "jan.kowalczyk@contoso.pl", "+49 30 901820", "378282246310013");

    @Test
    void noDetectedValueSurvivesMasking() {
        Gen<String> value = integers().between(0, VALUES.size() - 1).map(i -> " " + VALUES.get(i) + " ");
        Gen<List<String>> pieces = lists().of(prose().map(p -> p.replace('[', '(')).mix(value)).ofSizeBetween(1, 8);
        qt().withExamples(200).forAll(pieces).checkAssert(parts -> {
            String text = String.join("", parts);
            MaskedText m = PiiMaskerTest.ALL.mask(text);
            for (String v : VALUES) {
                assertThat(m.text()).doesNotContain(v);
            }
            assertThat(m.restorer().restore(m.text())).isEqualTo(text);
        });
    }
}

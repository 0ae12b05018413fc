package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one definition of the characters a name may not contain (issue 25, item 3): every C0 and C1 control (the C1
 * range is what Java's ASCII-only {@code \p{Cntrl}} missed), DEL, the line separators and the bidirectional
 * formatting characters; letters of any script, emoji and ordinary spaces stay allowed.
 */
class NameCharactersTest {

    @Test
    void everyC0AndC1ControlAndDelIsForbidden() {
        for (char c = 0; c < 0x20; c++) {
            assertThat(NameCharacters.isForbidden(c)).as("U+%04X", (int) c).isTrue();
        }
        for (char c = 0x7f; c <= 0x9f; c++) {
            assertThat(NameCharacters.isForbidden(c)).as("U+%04X", (int) c).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(chars = {'\u2028', '\u2029', '\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d',
        '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'})
    void separatorsAndBidiFormattingCharactersAreForbidden(char c) {
        assertThat(NameCharacters.isForbidden(c)).isTrue();
        assertThat(NameCharacters.firstForbidden("ab" + c + "cd")).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"project one", "Ünïcødé", "名前", "עברית", "emoji \uD83D\uDE00", "a-b_c.d", "\u00a0x"})
    void ordinaryNamesHaveNoForbiddenCharacter(String name) {
        assertThat(NameCharacters.firstForbidden(name)).isEqualTo(-1);
    }

    @Test
    void theCoresToolNameRuleUsesTheSameDefinition() {
        for (String tool : new String[] {"a\\u0085b", "a\\u009bb", "a\\u202eb", "a\\u2028b"}) {
            ReadResult r = PolicyReader.read("p.json", "{\"name\": \"p\", \"connectors\": [{\"connectorId\":"
                    + " \"0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10\", \"allowedTools\": [\"" + tool + "\"]}]}");
            assertThat(r.problems()).as(tool).anySatisfy(p -> {
                assertThat(p.code()).isEqualTo("invalid-tool-name");
                assertThat(p.pointer()).isEqualTo("/connectors/0/allowedTools/0");
            });
        }
    }
}

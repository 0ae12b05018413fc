package dev.stockade.runtime.tui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Clipping to a window's width counts columns, not characters, and escapes what it clips. */
class ScreenTest {
    @Test
    void clipCountsWideCharactersAsTwoColumns() {
        assertThat(Screen.columns("表表表表")).isEqualTo(8);
        assertThat(Screen.clip("表表表表", 5)).isEqualTo("表表…");
        assertThat(Screen.columns(Screen.clip("表表表表", 5))).isLessThanOrEqualTo(5);
        assertThat(Screen.clip("short", 10)).isEqualTo("short");
        assertThat(Screen.clip("abcdefghij", 5)).isEqualTo("abcd…");
    }

    @Test
    void clippedTextIsEscapedAndOnOneLine() {
        assertThat(Screen.clip("a\u001b[2Jb\nc\td", 40)).isEqualTo("a^[[2Jb c d");
    }
}

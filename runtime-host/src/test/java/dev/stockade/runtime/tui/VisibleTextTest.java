package dev.stockade.runtime.tui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a reply can no longer do to a terminal: every control is shown, none obeyed; text stays text. */
class VisibleTextTest {
    @Test
    void escapeSequencesAreShownNotRun() {
        assertThat(VisibleText.escape("\u001b[2J")).isEqualTo("^[[2J");             // CSI: clear the screen
        assertThat(VisibleText.escape("\u001b[10;5H")).isEqualTo("^[[10;5H");       // CSI: move the cursor
        assertThat(VisibleText.escape("\u001b]0;pwned\u0007")).isEqualTo("^[]0;pwned^G"); // OSC: set the title
        assertThat(VisibleText.escape("\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\"))
                .isEqualTo("^[]8;;http://x^[\\link^[]8;;^[\\");                    // OSC 8 hyperlink, ST-terminated
        assertThat(VisibleText.escape("\u001bc")).isEqualTo("^[c");                 // RIS: reset the terminal
    }

    @Test
    void c0ControlsAreShownInCaretNotation() {
        assertThat(VisibleText.escape("ding\u0007")).isEqualTo("ding^G");
        assertThat(VisibleText.escape("abc\u0008\u0008x")).isEqualTo("abc^H^Hx");
        assertThat(VisibleText.escape("secret\rshown")).isEqualTo("secret^Mshown");
        assertThat(VisibleText.escape("\u0000\u000e\u000f\u007f")).isEqualTo("^@^N^O^?");
    }

    @Test
    void c1ControlsAndBidirectionalControlsAreShownAsCodePoints() {
        assertThat(VisibleText.escape("\u009b2J")).isEqualTo("\\u009b2J");         // 8-bit CSI
        assertThat(VisibleText.escape("\u009d0;t\u009c")).isEqualTo("\\u009d0;t\\u009c"); // 8-bit OSC and ST
        assertThat(VisibleText.escape("\u0085")).isEqualTo("\\u0085");
        assertThat(VisibleText.escape("abc\u202edef\u2066")).isEqualTo("abc\\u202edef\\u2066");
    }

    @Test
    void newlinesTabsAndPrintableTextStay() {
        assertThat(VisibleText.escape("a\tb\nc")).isEqualTo("a\tb\nc");
        assertThat(VisibleText.escape("line one\r\nline two")).isEqualTo("line one\nline two");
        String printable = "Grüße, 表, │ ─ ┼, emoji 🙂, ^[ typed as text";
        assertThat(VisibleText.escape(printable)).isEqualTo(printable);
    }

    @Test
    void escapingTwiceChangesNothing() {
        String once = VisibleText.escape("\u001b[31mred\u009b\u0007\r");
        assertThat(VisibleText.escape(once)).isEqualTo(once);
        assertThat(once.chars().filter(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f))).isEmpty();
    }
}

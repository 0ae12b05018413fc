package dev.stockade.runtime.tui;

/**
 * Text from the runtime (a model's reply, a thread title, a problem's detail) made safe to print on a terminal: a
 * reply must not be able to move the cursor, set the window title, clear the screen or reorder what is shown, so
 * every control character is shown as what it is instead of being obeyed.
 */
public final class VisibleText {
    private VisibleText() {
    }

    /**
     * Keeps newline and tab; a CR before a newline is dropped (a line ending, not an overwrite); every other C0
     * control and DEL in caret notation ({@code ESC} as {@code ^[}, {@code BEL} as {@code ^G}, {@code DEL} as
     * {@code ^?}); C1 controls and the Unicode bidirectional controls as {@code \u009b}. An escape sequence is
     * therefore printed as text ({@code ^[[2J}), never run.
     */
    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\t') {
                out.append(c);
            } else if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                continue;
            } else if (c < 0x20) {
                out.append('^').append((char) (c + 0x40));
            } else if (c == 0x7f) {
                out.append("^?");
            } else if ((c >= 0x80 && c <= 0x9f) || bidirectional(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Embeddings, overrides, isolates and marks that make a terminal show text in another order than sent. */
    private static boolean bidirectional(char c) {
        return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069);
    }
}

package dev.stockade.cli.rest;

import dev.stockade.policy.text.Quoted;

/** Makes text from the server safe to print on a terminal. */
final class Text {
    private Text() {
    }

    /**
     * Escapes control characters (C0, DEL, C1) and the bidirectional overrides, so a name or an error detail
     * cannot move the cursor, recolour the terminal or reorder what is shown: a newline prints as {@code \n},
     * ESC as {@code \u001b}.
     */
    static String safe(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String esc = escape(c);
            if (esc != null && out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out != null) {
                out.append(esc != null ? esc : String.valueOf(c));
            }
        }
        return out == null ? s : out.toString();
    }

    private static String escape(char c) {
        switch (c) {
            case '\n': return "\\n";
            case '\r': return "\\r";
            case '\t': return "\\t";
            default:
                boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
                boolean bidi = (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069')
                        || c == '\u200e' || c == '\u200f' || c == '\u061c';
                return control || bidi ? String.format("\\u%04x", (int) c) : null;
        }
    }

    /**
     * User input shown in a message without backticks (a file, a URL, an exception's text): clipped by the
     * core's one rule ({@link Quoted#clip}), then made safe.
     */
    static String shown(Object value) {
        return safe(Quoted.clip(value == null ? null : String.valueOf(value)));
    }

    /** Bytes as UTF-8 text onto a writer (each chunk decoded whole), flushed per write. */
    static java.io.OutputStream utf8(java.io.PrintWriter writer) {
        return new java.io.OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writer.write(new String(b, off, len, java.nio.charset.StandardCharsets.UTF_8));
                writer.flush();
            }
        };
    }
}

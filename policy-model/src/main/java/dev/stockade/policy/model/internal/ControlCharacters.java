package dev.stockade.policy.model.internal;

import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import dev.stockade.policy.model.SourcePosition;

/** Characters a policy text cannot contain, found before any parser sees the text. */
final class ControlCharacters {
    private ControlCharacters() {
    }

    /**
     * The first character YAML 1.2 does not allow in a stream (C0 controls but tab, line feed and carriage
     * return; DEL; C1 controls but NEL; lone surrogates; U+FFFE and U+FFFF), placed at its line and column:
     * SnakeYAML would refuse it without a useful position, and JSON allows none of them raw either.
     */
    static Problem first(String text) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                lineStart = i + 1;
            } else if (notAllowed(text, i, c)) {
                return Problem.error(ProblemCode.CONTROL_CHARACTER, "", String.format(
                        "text holds the character U+%04X, which a policy cannot contain", (int) c),
                        "remove it; write control characters in quoted strings as escapes such as \\t")
                        .at(new SourcePosition(line, i - lineStart + 1));
            }
        }
        return null;
    }

    private static boolean notAllowed(String text, int i, char c) {
        if (c < 0x20) {
            return c != '\t' && c != '\r';
        }
        if (c >= 0x7f && c <= 0x9f) {
            return c != 0x85;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
        }
        return c == '\uFFFE' || c == '\uFFFF';
    }
}

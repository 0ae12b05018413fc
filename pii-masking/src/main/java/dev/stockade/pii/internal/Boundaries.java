package dev.stockade.pii.internal;

/** Character tests shared by the recognisers: where a value may begin and end inside code-shaped text. */
final class Boundaries {

    private Boundaries() {
    }

    /** Whether {@code c} glues to a neighbouring token (a letter, digit or underscore). */
    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** Whether position {@code i} of {@code text} is a word character; false outside the text. */
    static boolean wordAt(CharSequence text, int i) {
        return i >= 0 && i < text.length() && isWordChar(text.charAt(i));
    }

    /** Whether the lower-cased text just before {@code at} (within {@code reach} characters) contains a cue. */
    static boolean cueBefore(String text, int at, int reach, String[] cues) {
        int from = Math.max(0, at - reach);
        String before = text.substring(from, at).toLowerCase(java.util.Locale.ROOT);
        for (String cue : cues) {
            int i = before.indexOf(cue);
            while (i >= 0) {
                boolean startOk = i == 0 || !Character.isLetter(before.charAt(i - 1));
                int e = i + cue.length();
                boolean endOk = e >= before.length() || !Character.isLetter(before.charAt(e));
                if (startOk && endOk) {
                    return true;
                }
                i = before.indexOf(cue, i + 1);
            }
        }
        return false;
    }
}

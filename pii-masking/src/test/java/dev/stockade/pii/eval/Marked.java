package dev.stockade.pii.eval;

import dev.stockade.pii.PiiType;
import java.util.ArrayList;
import java.util.List;

/** Builds a text and its labels together, so a generated label can never point at the wrong characters. */
final class Marked {

    private final StringBuilder text = new StringBuilder();
    private final List<GoldSpan> spans = new ArrayList<>();

    Marked plain(String s) {
        text.append(s);
        return this;
    }

    Marked value(PiiType type, String s) {
        spans.add(new GoldSpan(text.length(), text.length() + s.length(), type));
        text.append(s);
        return this;
    }

    /** Parses {@code {{TYPE:value}}} markup. */
    static Marked parse(String markup) {
        Marked m = new Marked();
        int at = 0;
        while (true) {
            int open = markup.indexOf("{{", at);
            if (open < 0) {
                return m.plain(markup.substring(at));
            }
            int colon = markup.indexOf(':', open);
            int close = markup.indexOf("}}", colon);
            if (colon < 0 || close < 0) {
                throw new IllegalArgumentException("unclosed label at offset " + open);
            }
            m.plain(markup.substring(at, open));
            m.value(PiiType.valueOf(markup.substring(open + 2, colon)), markup.substring(colon + 1, close));
            at = close + 2;
        }
    }

    EvalExample build(String id, String shape, String source) {
        return new EvalExample(id, shape, source, text.toString(), spans);
    }
}

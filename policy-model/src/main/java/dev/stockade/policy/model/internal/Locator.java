package dev.stockade.policy.model.internal;

import dev.stockade.policy.model.SourceMap;
import dev.stockade.policy.model.SourcePosition;

/** Turns pointers (and offsets inside string values) into line and column, given the map and text. */
public final class Locator {
    private final SourceMap map;
    private final String text;
    private final int[] lineStarts;

    public Locator(SourceMap map, String text) {
        this.map = map == null ? SourceMap.empty() : map;
        this.text = text == null ? "" : text;
        int lines = 1;
        for (int i = 0; i < this.text.length(); i++) {
            if (this.text.charAt(i) == '\n') {
                lines++;
            }
        }
        lineStarts = new int[lines];
        int l = 1;
        for (int i = 0; i < this.text.length(); i++) {
            if (this.text.charAt(i) == '\n') {
                lineStarts[l++] = i + 1;
            }
        }
    }

    /** The position of the pointer or of its nearest known ancestor; (0, 0) when unknown. */
    public SourcePosition at(String pointer) {
        return map.nearest(pointer);
    }

    /**
     * The position of char {@code offset} inside the string value at {@code pointer}: the value's start,
     * plus one for an opening quote, plus the offset. Best effort: escapes in quoted strings and folded
     * YAML scalars may shift it; a value spanning lines falls back to its start.
     */
    public SourcePosition inside(String pointer, int offset) {
        SourcePosition start = map.valuePosition(pointer).orElse(null);
        if (start == null || start.line() < 1 || start.line() > lineStarts.length) {
            return at(pointer);
        }
        int index = lineStarts[start.line() - 1] + start.column() - 1;
        if (index < 0 || index >= text.length()) {
            return start;
        }
        char c = text.charAt(index);
        int shift = (c == '"' || c == '\'') ? 1 : 0;
        int end = text.indexOf('\n', index);
        int lineEnd = end < 0 ? text.length() : end;
        if (index + shift + offset > lineEnd) {
            return start;
        }
        return new SourcePosition(start.line(), start.column() + shift + offset);
    }

    /** The text of 1-based line {@code line}, without its line break; empty when out of range. */
    public String line(int line) {
        if (line < 1 || line > lineStarts.length) {
            return "";
        }
        int from = lineStarts[line - 1];
        int to = line < lineStarts.length ? lineStarts[line] - 1 : text.length();
        String s = text.substring(from, Math.max(from, to));
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }
}

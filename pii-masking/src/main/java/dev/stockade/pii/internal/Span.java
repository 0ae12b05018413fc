package dev.stockade.pii.internal;

import dev.stockade.pii.PiiType;

/** A finding: {@code [start, end)} of the scanned text holds a value of {@code type}. */
public record Span(int start, int end, PiiType type) {

    public Span {
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException("empty or negative span " + start + ".." + end);
        }
    }

    /** This span moved by {@code delta} characters. */
    public Span shift(int delta) {
        return new Span(start + delta, end + delta, type);
    }

    /** Whether the two spans share a character. */
    public boolean overlaps(Span other) {
        return start < other.end && other.start < end;
    }

    public int length() {
        return end - start;
    }
}

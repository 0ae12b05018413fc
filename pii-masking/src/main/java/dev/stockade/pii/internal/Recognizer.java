package dev.stockade.pii.internal;

import java.util.List;

/**
 * Finds values of one or more types in a window of text. Implementations are immutable and thread-safe; a
 * window is at most {@code ScanBudget.windowChars + windowOverlap} characters, which bounds each call's work.
 */
public interface Recognizer {

    /** Adds every finding in {@code text} to {@code out}, with offsets into {@code text}. */
    void find(String text, List<Span> out);
}

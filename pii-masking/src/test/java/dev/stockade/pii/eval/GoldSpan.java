package dev.stockade.pii.eval;

import dev.stockade.pii.PiiType;

/** A labelled value in an evaluation text: {@code [start, end)} holds a value of {@code type}. */
public record GoldSpan(int start, int end, PiiType type) {
}

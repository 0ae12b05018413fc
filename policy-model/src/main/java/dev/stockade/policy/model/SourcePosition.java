package dev.stockade.policy.model;

/** A place in a document's text: 1-based line and column (columns count chars). */
public record SourcePosition(int line, int column) {
}

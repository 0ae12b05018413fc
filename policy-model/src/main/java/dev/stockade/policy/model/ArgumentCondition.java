package dev.stockade.policy.model;

/**
 * A condition on a root field's arguments: the value an RFC 6901 {@code pointer} reaches inside the
 * arguments of {@code field} must match {@code glob}, compared as text.
 */
public record ArgumentCondition(String field, String pointer, String glob) {
}

package dev.stockade.policy.model;

/** An element of {@code integrations}: a cluster or cloud connection granted by name. */
public record Integration(IntegrationType type, String name) {
}

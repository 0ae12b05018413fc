package dev.stockade.policy.model;

/** An element of {@code credentials}: the named credential is handed to the sandbox in {@code envVarKey}. */
public record CredentialBinding(String credentialName, String envVarKey) {
}

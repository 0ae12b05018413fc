package dev.stockade.cli.format;

import java.util.List;

/**
 * The one table of canonical key order for {@code stockade policy fmt}: each object of a policy in the order the
 * spec lists its fields (spec "Policy" and the tables below it). Keys a table does not list (misspelled keys,
 * which lint reports) follow the listed ones in their written order; {@link #FREE} objects ({@code env} maps)
 * keep the author's order, since their keys are the author's own names.
 */
enum KeyOrder {
    POLICY("name", "description", "networkDefaultVerdict", "networkDefaultTransport", "allowedDomains", "credentials",
            "connectors", "integrations", "managedInference", "piiMasking", "env"),
    ENTRY("pattern", "verdict", "transport", "scheme", "description", "rules", "binaries"),
    RULE("method", "path", "graphql"),
    GRAPHQL("operationType", "operationName", "fields", "arguments"),
    ARGUMENT("field", "pointer", "glob"),
    CREDENTIAL("credentialName", "envVarKey"),
    CONNECTOR("connectorId", "allowedTools", "credentialId"),
    INTEGRATION("type", "name"),
    MANAGED_INFERENCE("enabled", "provider", "providers", "env"),
    PII_MASKING("types", "unmaskResponses", "failOpen"),
    FREE;

    private final List<String> keys;

    KeyOrder(String... keys) {
        this.keys = List.of(keys);
    }

    /** The rank of {@code key} in this object: its place in the table, or after every listed key. */
    int rank(String key) {
        int i = keys.indexOf(key);
        return i < 0 ? keys.size() : i;
    }

    /** The table of the objects found under {@code key} of this object (directly or as list elements). */
    KeyOrder child(String key) {
        return switch (this) {
            case POLICY -> switch (key) {
                case "allowedDomains" -> ENTRY;
                case "credentials" -> CREDENTIAL;
                case "connectors" -> CONNECTOR;
                case "integrations" -> INTEGRATION;
                case "managedInference" -> MANAGED_INFERENCE;
                case "piiMasking" -> PII_MASKING;
                default -> FREE;
            };
            case ENTRY -> "rules".equals(key) ? RULE : FREE;
            case RULE -> "graphql".equals(key) ? GRAPHQL : FREE;
            case GRAPHQL -> "arguments".equals(key) ? ARGUMENT : FREE;
            default -> FREE;
        };
    }
}

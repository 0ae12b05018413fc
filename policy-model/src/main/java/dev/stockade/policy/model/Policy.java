package dev.stockade.policy.model;

import java.util.List;
import java.util.Map;

/**
 * A policy document as its author wrote it (spec "Policy").
 *
 * <p>INVARIANT: a {@code null} component means the key was absent; an empty list or map means the key
 * was present and empty. The distinction matters (update semantics, caller fences), so the model keeps
 * it and {@code PolicyWriter} writes back exactly what was read. Lists and maps are unmodifiable.
 */
public record Policy(
        String name,
        String description,
        Verdict networkDefaultVerdict,
        Transport networkDefaultTransport,
        List<DomainEntry> allowedDomains,
        List<CredentialBinding> credentials,
        List<ConnectorGrant> connectors,
        List<Integration> integrations,
        ManagedInference managedInference,
        PiiMasking piiMasking,
        Map<String, String> env) {

    /** Copies every list and map (absent stays {@code null}: the document said nothing), so the policy stays immutable. */
    public Policy {
        allowedDomains = Lists.copyOrNull(allowedDomains);
        credentials = Lists.copyOrNull(credentials);
        connectors = Lists.copyOrNull(connectors);
        integrations = Lists.copyOrNull(integrations);
        env = Lists.copyOrNull(env);
    }

    /** A policy with only a name: reaches nothing. */
    public static Policy named(String name) {
        return new Policy(name, null, null, null, null, null, null, null, null, null, null);
    }

    /** The verdict for unmatched domains; deny when the key is absent (egress is denied by default). */
    public Verdict effectiveDefaultVerdict() {
        return networkDefaultVerdict == null ? Verdict.DENY : networkDefaultVerdict;
    }

    /** The transport for unmatched domains when the default allows; upstream when absent. */
    public Transport effectiveDefaultTransport() {
        return networkDefaultTransport == null ? Transport.UPSTREAM : networkDefaultTransport;
    }

    /** The domain entries, empty when the key is absent. */
    public List<DomainEntry> domains() {
        return allowedDomains == null ? List.of() : allowedDomains;
    }

    /** A copy of this policy with {@code value} as its domain entries. */
    public Policy withAllowedDomains(List<DomainEntry> value) {
        return new Policy(name, description, networkDefaultVerdict, networkDefaultTransport, value, credentials,
                connectors, integrations, managedInference, piiMasking, env);
    }

    /** A copy of this policy with {@code value} as its managed inference. */
    public Policy withManagedInference(ManagedInference value) {
        return new Policy(name, description, networkDefaultVerdict, networkDefaultTransport, allowedDomains,
                credentials, connectors, integrations, value, piiMasking, env);
    }

    /** A copy of this policy with {@code value} as its sandbox environment. */
    public Policy withEnv(Map<String, String> value) {
        return new Policy(name, description, networkDefaultVerdict, networkDefaultTransport, allowedDomains,
                credentials, connectors, integrations, managedInference, piiMasking, value);
    }
}

package dev.stockade.api.enforcement;

import java.util.List;
import java.util.UUID;

/**
 * Reveals credentials to the one reader allowed to see their secrets in clear: the proxy feed, which hands them to
 * an authenticated proxy for injection. Implemented by the credentials feature (secrets sealed with Tink).
 */
public interface CredentialMaterials {

    /**
     * One credential as a proxy injects it.
     *
     * @param id      the credential's id
     * @param name    its name (what policies' {@code credentials[].credentialName} refer to)
     * @param domains the domain patterns it serves, optionally {@code pattern:port} (attaching never allows a
     *                domain)
     * @param headerFormat the header it is injected as, {@code Name: value} with {@code {secret}} where the secret
     *                goes (e.g. {@code Authorization: Bearer {secret}}), as proxy-host's {@code Credential} reads
     *                it; {@code null} when the credential is only reached through its sentinel
     * @param secret  the secret in clear; never logged, never in a problem body or an exception message
     */
    record Material(UUID id, String name, List<String> domains, String headerFormat, String secret) {
        @Override
        public String toString() {
            return "Material[" + id + ", " + name + "]"; // never the secret
        }
    }

    /** The materials of {@code ids} that still exist, in the order given. */
    List<Material> reveal(List<UUID> ids);
}

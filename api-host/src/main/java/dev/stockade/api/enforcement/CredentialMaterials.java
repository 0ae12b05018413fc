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
     * @param domains the domain patterns it serves (attaching never allows a domain)
     * @param header  the header it is injected into (e.g. {@code Authorization})
     * @param format  the header value with {@code {secret}} where the secret goes (e.g. {@code Bearer {secret}},
     *                {@code Basic {secret}})
     * @param secret  the secret in clear; never logged, never in a problem body or an exception message
     */
    record Material(UUID id, String name, List<String> domains, String header, String format, String secret) {
        @Override
        public String toString() {
            return "Material[" + id + ", " + name + "]"; // never the secret
        }
    }

    /** The materials of {@code ids} that still exist, in the order given. */
    List<Material> reveal(List<UUID> ids);
}

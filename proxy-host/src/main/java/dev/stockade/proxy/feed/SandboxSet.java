package dev.stockade.proxy.feed;

import java.util.List;

/**
 * What one sandbox's proxy enforces, as the platform's feed delivers it: the policy documents that reach the sandbox
 * (attachment order, the embedded policy last) and the organization ceiling's documents, each named by its content
 * hash ({@link PolicyDocuments} holds the texts), and the credentials it may use. The proxy reads and compiles the
 * documents with the core; it never resolves anything the platform did not send.
 *
 * @param version     the platform's enforcement version of this set (increasing across every sandbox)
 * @param sandboxId   the sandbox, as audit lines name it
 * @param orgId       its organization (a halt of the org denies everything)
 * @param projectId   its project
 * @param tokenSha256 lowercase hex SHA-256 of the token the sandbox presents in {@code Proxy-Authorization}
 * @param grants      the policy documents' hashes, in order
 * @param ceiling     the ceiling's documents' hashes, in order
 * @param credentials the credentials the proxy injects for this sandbox only
 */
public record SandboxSet(long version, String sandboxId, String orgId, String projectId, String tokenSha256,
                         List<DocumentHash> grants, List<DocumentHash> ceiling, List<CredentialSpec> credentials) {

    public SandboxSet {
        grants = List.copyOf(grants);
        ceiling = List.copyOf(ceiling);
        credentials = List.copyOf(credentials);
    }

    /**
     * One credential as the proxy injects it.
     *
     * @param name         what policies' {@code credentials[].credentialName} refer to
     * @param domains      the domain patterns it serves
     * @param headerFormat {@code Name: value} with {@code {secret}}, or null when only its sentinel reaches it
     * @param secret       the secret in clear: never logged, never in an exception message
     */
    public record CredentialSpec(String name, List<String> domains, String headerFormat, String secret) {
        public CredentialSpec {
            domains = List.copyOf(domains);
        }

        @Override
        public String toString() {
            return "CredentialSpec[" + name + "]"; // never the secret
        }
    }

    @Override
    public String toString() {
        return "SandboxSet[" + sandboxId + " v" + version + ", " + grants.size() + " documents, "
                + credentials.size() + " credentials]";
    }
}

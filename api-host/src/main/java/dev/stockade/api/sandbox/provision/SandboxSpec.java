package dev.stockade.api.sandbox.provision;

import java.util.List;
import java.util.Map;

/**
 * Everything a provisioner needs to run one revision of a sandbox. Built by the sandbox feature from the active
 * revision; holds no secret in clear: credentials reach the sandbox only as sentinels
 * ({@code __platform_cred:<uuid>__}) in {@link #env}, which its egress proxy rewrites on the way out.
 *
 * @param sandboxId   the sandbox's id (UUID text); provisioners name their resources after it
 * @param orgId       its organization
 * @param projectId   its project
 * @param slug        the DNS label of its exposed-port host ({@code <slug>.<sandboxIngress.host>})
 * @param revision    the revision being provisioned
 * @param image       the image or root filesystem to run ({@code null}: the provisioner's default)
 * @param cpuMillis   CPU limit in millicores
 * @param memoryBytes memory limit in bytes
 * @param env         the environment: the core's env plan (policy env, credential sentinels, managed-inference
 *                    variables) plus {@code HTTP_PROXY}/{@code HTTPS_PROXY} pointing at {@link #egress}
 * @param egress      the egress proxy this sandbox must use, and the only route out of it
 * @param ports       exposed ports (at most four)
 */
public record SandboxSpec(
        String sandboxId,
        String orgId,
        String projectId,
        String slug,
        int revision,
        String image,
        long cpuMillis,
        long memoryBytes,
        Map<String, String> env,
        EgressRoute egress,
        List<Integer> ports) {

    public SandboxSpec {
        env = Map.copyOf(env);
        ports = List.copyOf(ports);
    }

    /**
     * The sandbox's egress proxy.
     *
     * @param host          address of the proxy listener as seen from the provisioner's side
     * @param port          its port
     * @param proxyToken    the secret the sandbox presents in {@code Proxy-Authorization} (its sandbox token); the
     *                      provisioner puts it into the proxy URLs of the environment and nowhere else
     * @param caCertificate PEM of the CA the proxy signs intercepted TLS with, to trust inside the sandbox
     */
    public record EgressRoute(String host, int port, String proxyToken, String caCertificate) {
        @Override
        public String toString() {
            return "EgressRoute[" + host + ":" + port + "]"; // never the token
        }
    }
}

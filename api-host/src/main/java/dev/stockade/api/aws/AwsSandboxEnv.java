package dev.stockade.api.aws;

import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.sandbox.SandboxEnvSource;
import dev.stockade.api.sandbox.SandboxPolicies;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.Provisioner;
import dev.stockade.policy.model.Integration;
import dev.stockade.policy.model.IntegrationType;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Points a sandbox's AWS SDKs at the platform's container credentials endpoint when its policies name AWS
 * connections: the first named connection becomes the default credentials of the SDKs' provider chain, authorised by
 * the sandbox's own token (sent as is in {@code Authorization}, so it carries its {@code Bearer} scheme), and with
 * exactly one connection its region becomes {@code AWS_REGION}. A local sandbox is pointed at the link-local address
 * its namespace maps to the platform, since the SDKs accept plain http only there or on loopback.
 */
@Singleton
class AwsSandboxEnv implements SandboxEnvSource {
    static final String FULL_URI = "AWS_CONTAINER_CREDENTIALS_FULL_URI";
    static final String AUTHORIZATION = "AWS_CONTAINER_AUTHORIZATION_TOKEN";
    static final String REGION = "AWS_REGION";

    private final SandboxPolicies policies;
    private final AwsConnectionService connections;
    private final Provisioner provisioner;

    AwsSandboxEnv(SandboxPolicies policies, AwsConnectionService connections, Provisioner provisioner) {
        this.policies = policies;
        this.connections = connections;
        this.provisioner = provisioner;
    }

    @Override
    public Map<String, String> env(Sandbox s, String platformApiUrl, String sandboxToken) {
        List<String> named = named(policies.grants(s.orgId(), s.config()).stream()
                .map(d -> PolicyReader.read("policy", d.toString()).policy()).toList());
        Map<String, String> env = new LinkedHashMap<>();
        if (named.isEmpty()) {
            return env;
        }
        String api = provisioner instanceof LocalProvisioner local ? local.linkLocalApiUrl() : platformApiUrl;
        env.put(FULL_URI, credentialsUrl(api, named.get(0)));
        env.put(AUTHORIZATION, "Bearer " + sandboxToken);
        if (named.size() == 1) {
            Optional<AwsConnection> only = connections.byName(s.projectId(), named.get(0));
            only.ifPresent(c -> env.put(REGION, c.region()));
        }
        return env;
    }

    /** The AWS connections the policies name, each once, in the order they are first named. */
    static List<String> named(List<Policy> grants) {
        Set<String> out = new LinkedHashSet<>();
        grants.stream().map(Policy::integrations).filter(Objects::nonNull).flatMap(List::stream)
                .filter(i -> i.type() == IntegrationType.AWS_CONNECTION).map(Integration::name).forEach(out::add);
        return List.copyOf(out);
    }

    /** The container credentials URL of connection {@code name} as the sandbox reaches the platform. */
    static String credentialsUrl(String platformApiUrl, String name) {
        String base = platformApiUrl.replaceAll("/+$", "");
        String v1 = base.endsWith("/v1") ? base.substring(0, base.length() - 3) : base;
        return v1 + AwsCredentialsController.PATH
                + java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }
}

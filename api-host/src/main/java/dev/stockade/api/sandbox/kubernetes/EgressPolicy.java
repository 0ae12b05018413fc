package dev.stockade.api.sandbox.kubernetes;

import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The network policy that makes the egress proxy a sandbox pod's only way out: it selects the one pod by its sandbox
 * label, declares the Egress policy type (so everything not listed is refused by the cluster's network plugin) and
 * allows TCP to the proxy's port only: to its address when the proxy is named by address ({@code ipBlock} /32 or
 * /128), else to the pods the install names with {@code sandbox.k8s.proxyPodLabels}. DNS to the cluster DNS pods is
 * allowed only when the install says {@code sandbox.k8s.allowDns}: the proxy resolves names for its clients, and an
 * open resolver is a way out (DNS tunnelling).
 */
final class EgressPolicy {
    private EgressPolicy() {
    }

    static NetworkPolicy of(SandboxSpec spec, SandboxManifests.Names names, KubernetesSettings settings)
            throws ProvisionException {
        List<NetworkPolicyEgressRule> rules = new ArrayList<>();
        rules.add(new NetworkPolicyEgressRuleBuilder().withTo(proxyPeer(spec.egress(), settings))
                .withPorts(port("TCP", spec.egress().port())).build());
        if (settings.allowDns()) {
            NetworkPolicyPeer dns = new NetworkPolicyPeerBuilder()
                    .withNewNamespaceSelector().addToMatchLabels("kubernetes.io/metadata.name", settings.dnsNamespace())
                    .endNamespaceSelector()
                    .withNewPodSelector().withMatchLabels(settings.dnsPodLabels()).endPodSelector().build();
            rules.add(new NetworkPolicyEgressRuleBuilder().withTo(dns).withPorts(port("UDP", 53), port("TCP", 53))
                    .build());
        }
        return new NetworkPolicyBuilder()
                .withMetadata(SandboxManifests.meta(names.policy(), settings.namespace(), SandboxManifests.labels(spec)))
                .withNewSpec()
                .withNewPodSelector().addToMatchLabels(SandboxManifests.SANDBOX, SandboxManifests.labels(spec)
                        .get(SandboxManifests.SANDBOX)).endPodSelector()
                .withPolicyTypes("Egress").withEgress(rules)
                .endSpec().build();
    }

    private static NetworkPolicyPeer proxyPeer(SandboxSpec.EgressRoute egress, KubernetesSettings settings)
            throws ProvisionException {
        InetAddress address = literal(egress.host());
        if (address != null) {
            int bits = address.getAddress().length == 4 ? 32 : 128;
            return new NetworkPolicyPeerBuilder().withNewIpBlock().withCidr(address.getHostAddress() + "/" + bits)
                    .endIpBlock().build();
        }
        if (settings.proxyPodLabels().isEmpty() || settings.proxyNamespace() == null) {
            throw new ProvisionException("the egress proxy `" + egress.host() + "` is named by host name: a network"
                    + " policy can allow it only by address, or by pod labels (set sandbox.k8s.proxyNamespace and"
                    + " sandbox.k8s.proxyPodLabels)");
        }
        return new NetworkPolicyPeerBuilder()
                .withNewNamespaceSelector().withMatchLabels(Map.of("kubernetes.io/metadata.name",
                        settings.proxyNamespace())).endNamespaceSelector()
                .withNewPodSelector().withMatchLabels(settings.proxyPodLabels()).endPodSelector().build();
    }

    private static NetworkPolicyPort port(String protocol, int port) {
        NetworkPolicyPort p = new NetworkPolicyPort();
        p.setProtocol(protocol);
        p.setPort(new IntOrString(port));
        return p;
    }

    /** The address {@code host} spells, or {@code null} for a host name (never looked up). */
    private static InetAddress literal(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean ipv4 = h.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")
                && java.util.Arrays.stream(h.split("\\.")).allMatch(o -> Integer.parseInt(o) <= 255);
        boolean ipv6 = h.contains(":") && h.matches("[0-9a-fA-F:.]+");
        if (!ipv4 && !ipv6) {
            return null;
        }
        try {
            return InetAddress.getByName(h); // a literal: parsed, not resolved
        } catch (UnknownHostException e) {
            return null;
        }
    }
}

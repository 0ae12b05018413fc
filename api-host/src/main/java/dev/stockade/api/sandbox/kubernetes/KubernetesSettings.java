package dev.stockade.api.sandbox.kubernetes;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The kubernetes provisioner's values ({@code sandbox.k8s.*}; the install ceiling {@code sandbox.k8s.cpu} and
 * {@code sandbox.k8s.memory} belong to the sandbox feature and are not read here).
 *
 * @param namespace         where every sandbox's pod, secrets, volume claim and network policy live
 * @param image             the image a sandbox runs when its spec names none
 * @param command           what the sandbox container runs (it must stay up: exec attaches to it)
 * @param shell             what an exec without a command runs
 * @param volumeSize        the size of each sandbox's persistent volume claim
 * @param storageClass      the claim's storage class ({@code null}: the cluster's default)
 * @param mountPath         where the volume is mounted in the container
 * @param allowDns          whether sandboxes may query the cluster DNS (off: the proxy resolves names for them)
 * @param dnsNamespace      namespace of the cluster DNS pods ({@code allowDns})
 * @param dnsPodLabels      labels of the cluster DNS pods ({@code allowDns})
 * @param proxyNamespace    namespace of the egress proxy pods, when the proxy is named by host name, not address
 * @param proxyPodLabels    labels of the egress proxy pods, when the proxy is named by host name, not address
 * @param startTimeout      how long provision waits for the pod to run
 * @param stopTimeout       how long stop and delete wait for the pod to be gone
 * @param platformUrl       the platform as pods reach it (e.g. its in-cluster service URL); {@code null}: its
 *                          public URL
 */
@ConfigurationProperties("sandbox.k8s")
public record KubernetesSettings(
        @Bindable(defaultValue = "stockade-sandboxes") String namespace,
        @Bindable(defaultValue = "debian:bookworm-slim") String image,
        @Bindable(defaultValue = "/bin/sh,-c,trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done")
        List<String> command,
        @Bindable(defaultValue = "/bin/sh") String shell,
        @Bindable(defaultValue = "1Gi") String volumeSize,
        @Nullable String storageClass,
        @Bindable(defaultValue = "/workspace") String mountPath,
        @Bindable(defaultValue = "false") boolean allowDns,
        @Bindable(defaultValue = "kube-system") String dnsNamespace,
        @Nullable Map<String, String> dnsPodLabels,
        @Nullable String proxyNamespace,
        @Nullable Map<String, String> proxyPodLabels,
        @Bindable(defaultValue = "120s") Duration startTimeout,
        @Bindable(defaultValue = "60s") Duration stopTimeout,
        @Nullable String platformUrl) {

    /** Where the proxy's CA certificate is mounted inside the sandbox. */
    public static final String CA_DIR = "/etc/stockade/ca";

    public KubernetesSettings {
        dnsPodLabels = dnsPodLabels == null || dnsPodLabels.isEmpty() ? Map.of("k8s-app", "kube-dns") : Map.copyOf(dnsPodLabels);
        proxyPodLabels = proxyPodLabels == null ? Map.of() : Map.copyOf(proxyPodLabels);
        command = List.copyOf(command);
    }

    /** The defaults, in namespace {@code namespace} (tests and tools). */
    public static KubernetesSettings defaults(String namespace) {
        return new KubernetesSettings(namespace, "debian:bookworm-slim",
                List.of("/bin/sh", "-c", "trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done"),
                "/bin/sh", "1Gi", null, "/workspace", false, "kube-system", null, null, null,
                Duration.ofSeconds(120), Duration.ofSeconds(60), null);
    }

    /** A copy with the DNS choice changed. */
    public KubernetesSettings withDns(boolean allow) {
        return new KubernetesSettings(namespace, image, command, shell, volumeSize, storageClass, mountPath, allow,
                dnsNamespace, dnsPodLabels, proxyNamespace, proxyPodLabels, startTimeout, stopTimeout, platformUrl);
    }

    /** A copy with a different start timeout. */
    public KubernetesSettings withStartTimeout(Duration timeout) {
        return new KubernetesSettings(namespace, image, command, shell, volumeSize, storageClass, mountPath, allowDns,
                dnsNamespace, dnsPodLabels, proxyNamespace, proxyPodLabels, timeout, stopTimeout, platformUrl);
    }

    /** Every problem with these values, one line each. */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (!namespace.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            out.add("sandbox.k8s.namespace: `" + namespace + "` is not a Kubernetes namespace name");
        }
        if (command.isEmpty()) {
            out.add("sandbox.k8s.command: must not be empty (the container must stay up for exec)");
        }
        if (!mountPath.startsWith("/")) {
            out.add("sandbox.k8s.mountPath: must be an absolute path");
        }
        if (!volumeSize.matches("[0-9]+(Ki|Mi|Gi|Ti)?")) {
            out.add("sandbox.k8s.volumeSize: `" + volumeSize + "` is not a quantity such as 1Gi");
        }
        return out;
    }
}

package dev.stockade.api.sandbox.kubernetes;

import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The Kubernetes objects of one sandbox, built from its {@link SandboxSpec}: a pod, a secret with the proxy URLs (they
 * carry the sandbox's proxy token, so they never sit in the pod spec in clear), a secret with the proxy's CA
 * certificate mounted as a file, a volume claim and (in {@link EgressPolicy}) the network policy. Pure functions: the
 * provisioner applies what this builds.
 */
final class SandboxManifests {
    static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    static final String ORG = "stockade.dev/org";
    static final String PROJECT = "stockade.dev/project";
    static final String SANDBOX = "stockade.dev/sandbox";
    static final String REVISION = "stockade.dev/revision";
    static final String CONTAINER = "sandbox";
    /** Proxy variables the provisioner owns: a value for them in the spec's env is replaced by the secret's. */
    static final Set<String> PROXY_VARIABLES = Set.of("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy",
            "ALL_PROXY", "all_proxy");

    private SandboxManifests() {
    }

    /** The names of a sandbox's objects, all derived from its id (checked to be a UUID, so names stay valid). */
    record Names(String pod, String proxySecret, String caSecret, String volume, String policy) {
        static Names of(String sandboxId) throws ProvisionException {
            try {
                String id = UUID.fromString(sandboxId).toString();
                if (!id.equals(sandboxId.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException(sandboxId);
                }
                String base = "sbx-" + id;
                return new Names(base, base + "-proxy", base + "-ca", base + "-data", base + "-egress");
            } catch (IllegalArgumentException e) {
                throw new ProvisionException("sandbox id `" + sandboxId + "` is not a UUID");
            }
        }
    }

    /** The labels every object of the sandbox carries (the network policy selects the pod by them). */
    static Map<String, String> labels(SandboxSpec spec) {
        Map<String, String> out = new TreeMap<>();
        out.put(MANAGED_BY, "stockade");
        out.put(ORG, spec.orgId());
        out.put(PROJECT, spec.projectId());
        out.put(SANDBOX, spec.sandboxId().toLowerCase(Locale.ROOT));
        out.put(REVISION, Integer.toString(spec.revision()));
        return out;
    }

    static ObjectMeta meta(String name, String namespace, Map<String, String> labels) {
        return new ObjectMetaBuilder().withName(name).withNamespace(namespace).withLabels(labels).build();
    }

    /** The proxy URL with the sandbox's token as the Basic password, as the egress proxy reads it. */
    static String proxyUrl(SandboxSpec.EgressRoute egress) {
        String host = egress.host().contains(":") && !egress.host().startsWith("[") ? "[" + egress.host() + "]"
                : egress.host();
        return "http://sandbox:" + URLEncoder.encode(egress.proxyToken(), StandardCharsets.UTF_8) + "@" + host + ":"
                + egress.port();
    }

    static Secret proxySecret(SandboxSpec spec, Names names, String namespace) {
        String url = proxyUrl(spec.egress());
        Map<String, String> data = new TreeMap<>();
        for (String variable : List.of("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")) {
            data.put(variable, url);
        }
        return new SecretBuilder().withMetadata(meta(names.proxySecret(), namespace, labels(spec)))
                .withType("Opaque").withStringData(data).build();
    }

    static Secret caSecret(SandboxSpec spec, Names names, String namespace) {
        String pem = spec.egress().caCertificate() == null ? "" : spec.egress().caCertificate();
        return new SecretBuilder().withMetadata(meta(names.caSecret(), namespace, labels(spec)))
                .withType("Opaque").withStringData(Map.of("ca.crt", pem)).build();
    }

    static PersistentVolumeClaim volume(SandboxSpec spec, Names names, KubernetesSettings settings) {
        return new PersistentVolumeClaimBuilder().withMetadata(meta(names.volume(), settings.namespace(), labels(spec)))
                .withNewSpec().withAccessModes("ReadWriteOnce").withStorageClassName(settings.storageClass())
                .withNewResources().addToRequests("storage", new Quantity(settings.volumeSize())).endResources()
                .endSpec().build();
    }

    static Pod pod(SandboxSpec spec, Names names, KubernetesSettings settings) {
        Map<String, Quantity> limits = new LinkedHashMap<>();
        limits.put("cpu", new Quantity(spec.cpuMillis() + "m"));
        limits.put("memory", new Quantity(Long.toString(spec.memoryBytes())));
        Container container = new ContainerBuilder().withName(CONTAINER)
                .withImage(spec.image() == null || spec.image().isBlank() ? settings.image() : spec.image())
                .withCommand(settings.command()).withEnv(env(spec, names))
                .withNewResources().withLimits(limits).withRequests(limits).endResources()
                .withPorts(spec.ports().stream().map(p -> new ContainerPortBuilder().withContainerPort(p)
                        .withProtocol("TCP").build()).toList())
                .addNewVolumeMount().withName("data").withMountPath(settings.mountPath()).endVolumeMount()
                .addNewVolumeMount().withName("ca").withMountPath(KubernetesSettings.CA_DIR).withReadOnly(true)
                .endVolumeMount()
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL")
                .endCapabilities().withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .endSecurityContext().build();
        return new PodBuilder().withMetadata(meta(names.pod(), settings.namespace(), labels(spec)))
                .withNewSpec()
                // no service-account token and no service links: the sandbox reaches no cluster API but through
                // the platform's cluster proxy, and learns nothing of the namespace's services
                .withAutomountServiceAccountToken(false).withEnableServiceLinks(false)
                .withHostname(spec.slug()).withRestartPolicy("Always").withContainers(container)
                .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName(names.volume())
                .endPersistentVolumeClaim().endVolume()
                .addNewVolume().withName("ca").withNewSecret().withSecretName(names.caSecret()).endSecret().endVolume()
                .endSpec().build();
    }

    /**
     * The container's environment: the spec's env plan in name order (proxy variables excepted), the proxy URLs by
     * reference to the proxy secret, and where the CA file is.
     */
    static List<EnvVar> env(SandboxSpec spec, Names names) {
        List<EnvVar> out = new ArrayList<>();
        new TreeMap<>(spec.env()).forEach((k, v) -> {
            if (!PROXY_VARIABLES.contains(k)) {
                out.add(new EnvVar(k, v, null));
            }
        });
        for (String variable : List.of("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")) {
            out.add(new EnvVarBuilder().withName(variable).withNewValueFrom().withNewSecretKeyRef()
                    .withName(names.proxySecret()).withKey(variable).endSecretKeyRef().endValueFrom().build());
        }
        String caFile = KubernetesSettings.CA_DIR + "/ca.crt";
        if (!spec.env().containsKey("STOCKADE_CA_FILE")) {
            out.add(new EnvVar("STOCKADE_CA_FILE", caFile, null));
        }
        if (!spec.env().containsKey("NODE_EXTRA_CA_CERTS")) {
            out.add(new EnvVar("NODE_EXTRA_CA_CERTS", caFile, null)); // additive: Node keeps its own roots
        }
        return out;
    }
}

package dev.stockade.api.sandbox.kubernetes;

import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.Provisioner;
import dev.stockade.api.sandbox.provision.RuntimeStatus;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import dev.stockade.api.kernel.config.PlatformConfig;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Sandboxes as pods, through the fabric8 client (selected by {@code sandbox.provisioner=kubernetes}). Per sandbox:
 * a network policy (applied first, so the pod never runs a moment without it), the proxy and CA secrets, a volume
 * claim, then the pod. Stop deletes the pod and keeps the claim; delete removes everything. Status comes from the
 * pod's phase and container states ({@link PodPhases}); exec uses the API server's exec subresource with a tty.
 */
@Singleton
@Requires(property = "sandbox.provisioner", value = "kubernetes")
public final class KubernetesProvisioner implements Provisioner {
    private final KubernetesClient client;
    private final KubernetesSettings settings;
    private final String platformApiUrl;

    public KubernetesProvisioner(KubernetesClient client, KubernetesSettings settings, PlatformConfig platform) {
        this.client = client;
        this.settings = settings;
        String base = settings.platformUrl() != null && !settings.platformUrl().isBlank() ? settings.platformUrl()
                : platform.effectivePublicUrl();
        this.platformApiUrl = base.replaceAll("/+$", "") + "/v1";
    }

    /** Pods reach the platform at {@code sandbox.k8s.platformUrl}, else at its public URL. */
    @Override
    public String platformApiUrl() {
        return platformApiUrl;
    }

    @Override
    public String kind() {
        return "kubernetes";
    }

    @Override
    public void provision(SandboxSpec spec) throws ProvisionException {
        SandboxManifests.Names names = SandboxManifests.Names.of(spec.sandboxId());
        String ns = settings.namespace();
        var policy = EgressPolicy.of(spec, names, settings); // fails before anything is written when it cannot be made
        try {
            removePod(names); // a restart re-provisions: the old pod goes first, its volume stays
            client.network().v1().networkPolicies().inNamespace(ns).resource(policy)
                    .createOr(NonDeletingOperation::update);
            client.secrets().inNamespace(ns).resource(SandboxManifests.proxySecret(spec, names, ns))
                    .createOr(NonDeletingOperation::update);
            client.secrets().inNamespace(ns).resource(SandboxManifests.caSecret(spec, names, ns))
                    .createOr(NonDeletingOperation::update);
            if (client.persistentVolumeClaims().inNamespace(ns).withName(names.volume()).get() == null) {
                client.persistentVolumeClaims().inNamespace(ns).resource(SandboxManifests.volume(spec, names, settings))
                        .create();
            }
            client.pods().inNamespace(ns).resource(SandboxManifests.pod(spec, names, settings)).create();
        } catch (KubernetesClientException e) {
            throw new ProvisionException("the cluster refused the sandbox's objects: "
                    + withoutToken(reason(e), spec.egress().proxyToken()));
        }
        awaitRunning(names);
    }

    private void awaitRunning(SandboxManifests.Names names) throws ProvisionException {
        try {
            Pod pod = pod(names.pod()).waitUntilCondition(p -> p == null || PodPhases.settled(p),
                    settings.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
            RuntimeStatus status = PodPhases.of(pod);
            if (!status.running()) {
                throw new ProvisionException("the sandbox's pod did not start: "
                        + (status.detail().isEmpty() ? status.phase() : status.detail()));
            }
        } catch (KubernetesClientException e) {
            throw new ProvisionException("the sandbox's pod did not run within " + settings.startTimeout().toSeconds()
                    + " s (" + reason(e) + ")");
        }
    }

    @Override
    public void stop(String sandboxId) throws ProvisionException {
        removePod(SandboxManifests.Names.of(sandboxId));
    }

    @Override
    public void delete(String sandboxId) throws ProvisionException {
        SandboxManifests.Names names = SandboxManifests.Names.of(sandboxId);
        String ns = settings.namespace();
        removePod(names);
        try {
            client.persistentVolumeClaims().inNamespace(ns).withName(names.volume()).delete();
            client.secrets().inNamespace(ns).withName(names.proxySecret()).delete();
            client.secrets().inNamespace(ns).withName(names.caSecret()).delete();
            // the policy goes last: nothing of the sandbox runs any more by now
            client.network().v1().networkPolicies().inNamespace(ns).withName(names.policy()).delete();
        } catch (KubernetesClientException e) {
            throw new ProvisionException("the cluster refused to delete the sandbox's objects: " + reason(e));
        }
    }

    @Override
    public RuntimeStatus status(String sandboxId) {
        try {
            return PodPhases.of(pod(SandboxManifests.Names.of(sandboxId).pod()).get());
        } catch (ProvisionException e) {
            return RuntimeStatus.absent();
        } catch (KubernetesClientException e) {
            return new RuntimeStatus("failed", "the cluster could not be asked: " + reason(e));
        }
    }

    @Override
    public ExecProcess exec(String sandboxId, ExecRequest request) throws ProvisionException {
        SandboxManifests.Names names = SandboxManifests.Names.of(sandboxId);
        if (!status(sandboxId).running()) {
            throw new ProvisionException("the sandbox is not running");
        }
        List<String> command = request.command().isEmpty() ? List.of(settings.shell(), "-l") : request.command();
        try {
            var container = pod(names.pod()).inContainer(SandboxManifests.CONTAINER).redirectingInput()
                    .redirectingOutput();
            // with a tty the terminal carries both streams: no separate stderr (as kubectl asks)
            ExecWatch watch = request.tty() ? container.withTTY().exec(command.toArray(String[]::new))
                    : container.redirectingError().exec(command.toArray(String[]::new));
            if (request.tty() && request.cols() > 0 && request.rows() > 0) {
                watch.resize(request.cols(), request.rows());
            }
            return new PodExec(watch, request.tty());
        } catch (KubernetesClientException e) {
            throw new ProvisionException("the cluster refused the exec: " + reason(e));
        }
    }

    @Override
    public Optional<InetSocketAddress> portAddress(String sandboxId, int port) {
        try {
            Pod pod = pod(SandboxManifests.Names.of(sandboxId).pod()).get();
            if (pod == null || !PodPhases.of(pod).running() || pod.getStatus().getPodIP() == null) {
                return Optional.empty();
            }
            boolean exposed = pod.getSpec().getContainers().stream().flatMap(c -> c.getPorts().stream())
                    .map(ContainerPort::getContainerPort).anyMatch(p -> p != null && p == port);
            if (!exposed) {
                return Optional.empty();
            }
            // the pod IP is an address literal: parsed, never looked up
            return Optional.of(new InetSocketAddress(InetAddress.getByName(pod.getStatus().getPodIP()), port));
        } catch (ProvisionException | KubernetesClientException | UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** {@code text} with the proxy token (raw or URL-encoded) cut out, should a server message ever echo a value. */
    private static String withoutToken(String text, String token) {
        if (token == null || token.isEmpty()) {
            return text;
        }
        return text.replace(token, "[token]").replace(URLEncoder.encode(token, StandardCharsets.UTF_8), "[token]");
    }

    private PodResource pod(String name) {
        return client.pods().inNamespace(settings.namespace()).withName(name);
    }

    /** Deletes the pod (foreground) and waits until it is gone; a pod that is not there is fine. */
    private void removePod(SandboxManifests.Names names) throws ProvisionException {
        try {
            PodResource pod = pod(names.pod());
            if (pod.get() == null) {
                return;
            }
            pod.delete();
            pod.waitUntilCondition(p -> p == null, settings.stopTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (KubernetesClientException e) {
            throw new ProvisionException("the sandbox's pod could not be removed: " + reason(e));
        }
    }

    /**
     * A short reason from the API server's status, never the request (which may carry the proxy token). For an object
     * the server refuses (422) or an act it forbids (403) its message too: it names the object and each field with the
     * rule it broke, or what admission or RBAC refused, which is what someone fixing the install or the sandbox needs.
     */
    private static String reason(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getReason() != null) {
            String why = e.getStatus().getReason() + " (" + e.getCode() + ")";
            String message = e.getStatus().getMessage();
            if ((e.getCode() == 422 || e.getCode() == 403) && message != null && !message.isBlank()) {
                why += ": " + (message.length() > 500 ? message.substring(0, 500) + "…" : message.strip());
            }
            return why;
        }
        return e.getCode() > 0 ? "HTTP " + e.getCode() : "the API server could not be reached";
    }
}

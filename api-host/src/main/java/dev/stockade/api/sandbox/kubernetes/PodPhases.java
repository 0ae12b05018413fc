package dev.stockade.api.sandbox.kubernetes;

import dev.stockade.api.sandbox.provision.RuntimeStatus;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A pod's state as a provisioner phase: no pod is {@code absent}; a pod being deleted or that completed is
 * {@code stopped}; {@code Pending} is {@code starting} unless its container waits for a reason that will not pass by
 * itself (a bad image, a bad configuration, a crash loop), which is {@code failed}; {@code Running} is
 * {@code running} once the sandbox container runs; {@code Failed} and {@code Unknown} (node lost) are {@code failed}.
 */
final class PodPhases {
    /** Waiting reasons that mean the sandbox will not start without someone changing something. */
    static final Set<String> STUCK = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
            "CreateContainerConfigError", "CreateContainerError", "CrashLoopBackOff", "RunContainerError");

    private PodPhases() {
    }

    static RuntimeStatus of(Pod pod) {
        if (pod == null) {
            return RuntimeStatus.absent();
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return new RuntimeStatus("stopped", "");
        }
        String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending"
                : pod.getStatus().getPhase();
        Optional<ContainerStatus> container = sandboxContainer(pod);
        ContainerStateWaiting waiting = container.map(c -> c.getState() == null ? null : c.getState().getWaiting())
                .orElse(null);
        if (waiting != null && STUCK.contains(waiting.getReason())) {
            return failed(waiting.getReason(), waiting.getMessage());
        }
        return switch (phase) {
            case "Running" -> container.map(c -> c.getState() != null && c.getState().getRunning() != null).orElse(false)
                    ? new RuntimeStatus("running", "") : new RuntimeStatus("starting", "");
            case "Succeeded" -> new RuntimeStatus("stopped", "");
            case "Failed" -> failed(terminatedReason(container).orElse(pod.getStatus().getReason()),
                    pod.getStatus().getMessage());
            case "Unknown" -> failed("NodeLost", "the pod's node does not answer");
            default -> new RuntimeStatus("starting", "");
        };
    }

    /** Whether provision can stop waiting: the pod runs, failed, stopped or is gone. */
    static boolean settled(Pod pod) {
        return !of(pod).phase().equals("starting");
    }

    private static Optional<ContainerStatus> sandboxContainer(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
        return statuses == null ? Optional.empty()
                : statuses.stream().filter(c -> SandboxManifests.CONTAINER.equals(c.getName())).findFirst();
    }

    private static Optional<String> terminatedReason(Optional<ContainerStatus> container) {
        return container.map(c -> c.getState() == null ? null : c.getState().getTerminated())
                .map(ContainerStateTerminated::getReason);
    }

    private static RuntimeStatus failed(String reason, String message) {
        String r = reason == null || reason.isBlank() ? "Failed" : reason;
        String m = message == null || message.isBlank() ? "" : ": " + message.strip();
        String detail = r + m;
        return new RuntimeStatus("failed", detail.length() > 300 ? detail.substring(0, 300) + "…" : detail);
    }
}

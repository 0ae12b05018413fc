package dev.stockade.api.sandbox.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The part of a cluster the mock API server lacks: a node agent that reports the pods it is given. It watches the
 * namespace through the real API and writes each new pod's status subresource, as a kubelet does: running with an
 * address, or stuck pulling its image, or nothing at all (no node to schedule on).
 */
final class Kubelet implements AutoCloseable {
    enum Behaviour { RUN, IMAGE_PULL_FAILS, NOTHING }

    final AtomicReference<Behaviour> behaviour = new AtomicReference<>(Behaviour.RUN);
    private final AtomicInteger addresses = new AtomicInteger(10);
    private final KubernetesClient client;
    private final Watch watch;

    Kubelet(KubernetesClient client, String namespace) {
        this.client = client;
        this.watch = client.pods().inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (action == Action.ADDED && pod.getStatus() == null || action == Action.ADDED
                        && pod.getStatus().getPhase() == null) {
                    report(pod);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                // the test is over
            }
        });
    }

    private void report(Pod pod) {
        PodStatus status = switch (behaviour.get()) {
            case RUN -> running("10.1.0." + addresses.getAndIncrement());
            case IMAGE_PULL_FAILS -> new PodStatusBuilder().withPhase("Pending").addToContainerStatuses(
                    new ContainerStatusBuilder().withName("sandbox").withReady(false).withNewState().withNewWaiting()
                            .withReason("ImagePullBackOff").withMessage("Back-off pulling image \"nope:latest\"")
                            .endWaiting().endState().build()).build();
            case NOTHING -> null;
        };
        if (status != null) {
            setStatus(client, pod, status);
        }
    }

    static PodStatus running(String ip) {
        return new PodStatusBuilder().withPhase("Running").withPodIP(ip)
                .addNewCondition().withType("Ready").withStatus("True").endCondition().addToContainerStatuses(
                new ContainerStatusBuilder().withName("sandbox").withReady(true).withNewState().withNewRunning()
                        .withStartedAt("2026-11-23T00:00:00Z").endRunning().endState().build()).build();
    }

    static void setStatus(KubernetesClient client, Pod pod, PodStatus status) {
        client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .editStatus(p -> {
                    p.setStatus(status);
                    return p;
                });
    }

    @Override
    public void close() {
        watch.close();
    }
}

package dev.stockade.api.sandbox.kubernetes;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a real API server lacks without a scheduler and a kubelet, played through its own API: a Node object whose
 * address and kubelet port point at {@link KubeletEndpoint}; each new pod of the namespace bound to it through the
 * {@code binding} subresource (the scheduler's act); a bound pod's status written as running with an address (the
 * kubelet's report); and a pod being deleted confirmed gone with a grace period of 0 (the kubelet's last word, without
 * which a bound pod stays Terminating for ever).
 */
final class LoopbackNode implements AutoCloseable {
    static final String NAME = "loopback-node";

    /** What went wrong in the watch's thread, for a test to report instead of a silent hang. */
    final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicInteger addresses = new AtomicInteger(10);
    private final KubernetesClient client;
    private final String namespace;
    private final Watch watch;

    LoopbackNode(KubernetesClient client, String namespace, int kubeletPort) {
        this.client = client;
        this.namespace = namespace;
        if (client.nodes().withName(NAME).get() == null) {
            Node node = new NodeBuilder().withNewMetadata().withName(NAME).endMetadata()
                    .withNewStatus().addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress()
                    .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(kubeletPort).endKubeletEndpoint()
                    .endDaemonEndpoints().endStatus().build();
            client.nodes().resource(node).create();
        }
        this.watch = client.pods().inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                try {
                    act(action, pod);
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 404 && e.getCode() != 409) { // the pod went or moved on meanwhile
                        failures.add(pod.getMetadata().getName() + ": " + e.getMessage());
                    }
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                // the test is over
            }
        });
    }

    private void act(Watcher.Action action, Pod pod) {
        if (action == Watcher.Action.DELETED) {
            return;
        }
        String name = pod.getMetadata().getName();
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            client.pods().inNamespace(namespace).withName(name).withGracePeriod(0).delete();
        } else if (pod.getSpec().getNodeName() == null) {
            client.bindings().inNamespace(namespace).resource(new BindingBuilder().withNewMetadata().withName(name)
                    .endMetadata().withNewTarget().withKind("Node").withName(NAME).endTarget().build()).create();
        } else if (!"Running".equals(pod.getStatus().getPhase())) {
            PodStatus running = Kubelet.running("10.1.0." + addresses.getAndIncrement());
            running.setQosClass(pod.getStatus().getQosClass()); // the server's, which a kubelet keeps
            Kubelet.setStatus(client, pod, running);
        }
    }

    @Override
    public void close() {
        watch.close();
    }
}

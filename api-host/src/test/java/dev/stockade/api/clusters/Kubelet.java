package dev.stockade.api.clusters;

import dev.stockade.testing.ThrowawayPki;
import java.util.List;

/**
 * The kubelet a {@link StreamingCluster}'s node points at: a stand-in on a loopback port, certified by the API server's
 * CA and requiring the API server's kubelet-client certificate, that records what the API server asked of it.
 */
interface Kubelet extends AutoCloseable {
    /** Starts a kubelet stand-in trusting {@code pki}, the API server's CA; returns once it listens. */
    @FunctionalInterface
    interface Starter<K extends Kubelet> {
        K start(ThrowawayPki pki) throws InterruptedException;
    }

    /** The port the node's status names as its kubelet endpoint. */
    int port();

    /** The request targets the API server sent that the stand-in served (path and query, as received). */
    List<String> calls();

    @Override
    void close() throws InterruptedException;

    /**
     * The {@code metav1.Status} a kubelet writes when a command ends (protocol {@code v4.channel.k8s.io}): success, or
     * the non-zero exit code as the {@code ExitCode} cause that kubectl and client-go turn into their exit status.
     */
    static String execStatus(int exit) {
        return exit == 0 ? "{\"metadata\":{},\"status\":\"Success\"}"
                : "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"command terminated with non-zero exit code:"
                + " exit status " + exit + "\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":"
                + "\"ExitCode\",\"message\":\"" + exit + "\"}]}}";
    }
}

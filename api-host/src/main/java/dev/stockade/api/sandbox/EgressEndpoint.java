package dev.stockade.api.sandbox;

/**
 * Where sandboxes' egress proxy listens, as a provisioner must route them: in single-machine mode the proxy the
 * platform runs in-process.
 */
public interface EgressEndpoint {
    /** The proxy's address as seen from inside a sandbox. */
    String host();

    int port();

    /** PEM of the CA the proxy signs intercepted TLS with. */
    String caCertificate();
}

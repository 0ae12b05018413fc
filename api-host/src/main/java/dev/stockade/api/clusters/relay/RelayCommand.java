package dev.stockade.api.clusters.relay;

import dev.stockade.api.clusters.PemTrust;
import dev.stockade.api.kernel.net.OutboundClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code java -cp stockade-platform.jar dev.stockade.api.clusters.relay.RelayCommand ...}: runs a cluster's relay
 * (inside the cluster, as a Deployment with a service account allowed to impersonate the project groups).
 */
@Command(name = "stockade-relay", mixinStandardHelpOptions = true, description = "Carry the platform's cluster proxy"
        + " requests to this cluster's API server, over a tunnel the relay opens with the cluster's tunnel token.")
public final class RelayCommand implements Callable<Integer> {
    static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    @Option(names = "--platform-url", required = true, description = "The platform's public address.")
    URI platform;
    @Option(names = "--cluster", required = true, description = "The cluster's id.")
    UUID cluster;
    @Option(names = "--project", required = true, description = "The cluster's project (whose keys sign requests).")
    UUID project;
    @Option(names = "--tunnel-token-file", required = true, description = "File holding the tunnel token.")
    Path tunnelTokenFile;
    @Option(names = "--api-server", defaultValue = "https://kubernetes.default.svc", description = "The API server.")
    URI apiServer;
    @Option(names = "--ca-file", description = "PEM to trust for the API server (default: the service account's).")
    Path caFile;
    @Option(names = "--token-file", description = "The relay's own API token, used with impersonation (default: the"
            + " service account's); without one the request JWT is passed to the API server.")
    Path tokenFile;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RelayCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path ca = caFile != null ? caFile : existing(SERVICE_ACCOUNT.resolve("ca.crt"));
        Path token = tokenFile != null ? tokenFile : existing(SERVICE_ACCOUNT.resolve("token"));
        HttpClient.Builder api = OutboundClients.trustedBuilder(Duration.ofSeconds(10));
        if (ca != null) {
            api.sslContext(PemTrust.context(Files.readString(ca)));
        }
        ClusterRelay relay = new ClusterRelay(new ClusterRelay.Settings(platform, cluster, project,
                Files.readString(tunnelTokenFile).strip(), apiServer, api.build(), token));
        try {
            relay.run();
            return 0;
        } catch (ClusterRelay.TunnelRefused e) {
            System.err.println("stockade-relay: " + e.getMessage());
            return 1;
        }
    }

    private static Path existing(Path p) {
        return Files.isReadable(p) ? p : null;
    }
}

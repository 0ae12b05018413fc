package dev.stockade.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * A real Kubernetes control plane for a test: etcd and kube-apiserver v1.20.2 (the newest that builds from the
 * registries CI reaches; {@value #BUILD_SCRIPT} builds it once per machine) on free loopback ports, with a throwaway
 * CA and an admin token, so manifests meet the real validation, defaulting and admission instead of a mock's
 * leniency. No controller-manager, scheduler or kubelet runs: pods stay Pending unless a test binds them and writes
 * their status, as those would. A missing binary fails the test (CI builds it), naming the script.
 */
public final class KubeApiServer implements AutoCloseable {
    /** The script that builds the binary this fixture runs. */
    public static final String BUILD_SCRIPT = "deploy/kube/build-apiserver.sh";
    /** The version the script builds. */
    public static final String VERSION = "v1.20.2";
    /** How long the control plane may take to become ready: 6 s alone, far more on a loaded 2-core machine. */
    static final Duration READY_BOUND = Duration.ofSeconds(120);

    private final Path folder;
    private final ThrowawayPki pki;
    private final String token;
    private final List<Process> processes = new ArrayList<>();
    private String url;
    private Duration startup;

    private KubeApiServer(Path folder) {
        this.folder = folder;
        this.pki = ThrowawayPki.create(folder);
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        this.token = HexFormat.of().formatHex(random);
    }

    /** Starts etcd and kube-apiserver and returns once {@code /readyz} answers 200; fails when they cannot start. */
    public static KubeApiServer start() {
        return start(List.of());
    }

    /**
     * As {@link #start()}, with {@code extraFlags} appended to the API server's command line (an OIDC issuer to trust,
     * for a test whose tokens the server must verify itself).
     */
    public static KubeApiServer start(List<String> extraFlags) {
        Path binary = binary();
        Path etcd = etcd();
        KubeApiServer server;
        try {
            server = new KubeApiServer(Files.createTempDirectory("stockade-kube-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            server.run(binary, etcd, extraFlags);
            return server;
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
    }

    /** Where the cached kube-apiserver is: {@code $STOCKADE_KUBE_CACHE}, else the build script's default. */
    static Path binary() {
        String cache = System.getenv("STOCKADE_KUBE_CACHE");
        Path dir = cache != null && !cache.isBlank() ? Path.of(cache)
                : Path.of(System.getProperty("user.home"), ".cache", "stockade", "kube-" + VERSION);
        Path binary = dir.resolve("kube-apiserver");
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("kube-apiserver " + VERSION + " is missing at " + binary + ": build it with `"
                    + BUILD_SCRIPT + "` (about 11 minutes once; .ci/run does it in CI)");
        }
        return binary;
    }

    private static Path etcd() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir, "etcd");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("etcd is missing: `" + BUILD_SCRIPT + "` installs it (apt-get install etcd-server)");
    }

    private void run(Path binary, Path etcd, List<String> extraFlags) {
        long started = System.nanoTime();
        int client = freePort();
        int peer = freePort();
        int secure = freePort();
        var serving = pki.issue("apiserver", "/CN=kube-apiserver", ThrowawayPki.Use.SERVER,
                List.of("127.0.0.1", "10.0.0.1"), List.of("localhost", "kubernetes.default.svc"));
        var kubeletClient = pki.issue("apiserver-kubelet-client", "/O=system:masters/CN=kube-apiserver-kubelet-client",
                ThrowawayPki.Use.CLIENT, List.of(), List.of());
        var serviceAccounts = pki.keyPair("sa");
        write("tokens.csv", token + ",admin,admin-uid,\"system:masters\"\n");
        String etcdClient = "http://127.0.0.1:" + client;
        String etcdPeer = "http://127.0.0.1:" + peer;
        launch("etcd", List.of(etcd.toString(), "--name", "t", "--data-dir", folder.resolve("etcd").toString(),
                "--listen-client-urls", etcdClient, "--advertise-client-urls", etcdClient,
                "--listen-peer-urls", etcdPeer, "--initial-advertise-peer-urls", etcdPeer,
                "--initial-cluster", "t=" + etcdPeer));
        String issuer = "https://kubernetes.default.svc.cluster.local";
        List<String> apiServer = new ArrayList<>(List.of(binary.toString(), "--etcd-servers=" + etcdClient,
                "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port=" + secure,
                "--insecure-port=0", "--profiling=false",
                "--tls-cert-file=" + serving.certificate(), "--tls-private-key-file=" + serving.key(),
                "--client-ca-file=" + pki.caCertificate(), "--token-auth-file=" + folder.resolve("tokens.csv"),
                "--service-account-key-file=" + serviceAccounts.certificate(),
                "--service-account-signing-key-file=" + serviceAccounts.key(),
                "--service-account-issuer=" + issuer, "--api-audiences=" + issuer,
                "--service-cluster-ip-range=10.0.0.0/24", "--authorization-mode=RBAC", "--allow-privileged=true",
                // the "kubernetes" Endpoints may not be loopback: without this it complains every 10 s
                "--endpoint-reconciler-type=none",
                // exec, attach and port-forward reach a kubelet: verified against this CA, by its InternalIP
                "--kubelet-certificate-authority=" + pki.caCertificate(),
                "--kubelet-client-certificate=" + kubeletClient.certificate(),
                "--kubelet-client-key=" + kubeletClient.key(),
                "--kubelet-preferred-address-types=InternalIP"));
        apiServer.addAll(extraFlags);
        launch("kube-apiserver", apiServer);
        url = "https://127.0.0.1:" + secure;
        awaitReady();
        startup = Duration.ofNanos(System.nanoTime() - started);
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().sslContext(clientTls()).connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest readyz = HttpRequest.newBuilder(URI.create(url + "/readyz")).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(5)).build();
        Await.until("kube-apiserver's /readyz to answer 200", READY_BOUND, () -> {
            if (processes.stream().anyMatch(p -> !p.isAlive())) {
                return true; // reported below, with the log
            }
            try {
                return http.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
        });
        for (int i = 0; i < processes.size(); i++) {
            if (!processes.get(i).isAlive()) {
                String name = i == 0 ? "etcd" : "kube-apiserver";
                throw new IllegalStateException(name + " exited with " + processes.get(i).exitValue() + ":\n"
                        + tail(folder.resolve(name + ".log")));
            }
        }
    }

    /** The API server's base URL, {@code https://127.0.0.1:<port>}. */
    public String url() {
        return url;
    }

    /** A bearer token of the group {@code system:masters} (everything is allowed). */
    public String token() {
        return token;
    }

    /** The CA that signed the API server's certificate and that it trusts for clients and kubelets. */
    public ThrowawayPki pki() {
        return pki;
    }

    /** A TLS context that trusts the API server (and the kubelets this CA certifies). */
    public SSLContext clientTls() {
        return pki.sslContext(null);
    }

    /** The last lines the API server logged, for a test to show why it refused or failed something. */
    public String logTail() {
        return tail(folder.resolve("kube-apiserver.log"));
    }

    /** From launching etcd to the first 200 of {@code /readyz}. */
    public Duration startup() {
        return startup;
    }

    /** Stops both processes (SIGTERM, then SIGKILL after 20 s) and deletes the data and the keys. */
    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) { // the API server before the etcd it writes to
            Process p = processes.get(i);
            p.destroy();
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temp folder left behind is not worth failing a test for
        }
    }

    private void launch(String name, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true)
                .redirectOutput(folder.resolve(name + ".log").toFile());
        // the control plane gets a bare environment: nothing of the test JVM's (credentials included) reaches it
        Map<String, String> env = builder.environment();
        env.clear();
        env.put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        env.put("HOME", folder.toString());
        try {
            processes.add(builder.start());
        } catch (IOException e) {
            throw new IllegalStateException(name + " cannot start: " + e.getMessage(), e);
        }
    }

    private void write(String name, String text) {
        try {
            Files.writeString(folder.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.stockade.proxy;

import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.proxy.dial.DialGuard;
import dev.stockade.proxy.feed.ControlPlaneSource;
import dev.stockade.proxy.feed.FeedApplier;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code stockade-proxy}: runs the egress proxy over policy files until stopped. */
@Command(name = "stockade-proxy", mixinStandardHelpOptions = true, sortOptions = false, subcommands = CaCommand.class,
        description = "Egress forward proxy: decides every connection and request by the compiled policy.")
public final class ProxyMain implements Callable<Integer> {

    @Option(names = "--sandboxes", paramLabel = "FILE",
            description = "Sandbox file (JSON): name, token, policy, ceiling per sandbox; connections authenticate with Proxy-Authorization.")
    Path sandboxFile;

    @Option(names = "--platform", paramLabel = "URL",
            description = "Platform to follow: every sandbox's policy set and credentials come from its proxy feed, as they change; sandboxes authenticate with their sandbox token in Proxy-Authorization.")
    java.net.URI platform;

    @Option(names = "--platform-token-file", paramLabel = "FILE",
            description = "File holding the proxy token (stk_pxy_...) for --platform; minted with `stockade proxy-tokens create`.")
    Path platformTokenFile;

    @Option(names = "--policy", paramLabel = "PATH",
            description = "Policy file or folder (.yaml/.yml/.json) reaching the agent; repeatable, in attachment order.")
    List<Path> policies = new ArrayList<>();

    @Option(names = "--ceiling", paramLabel = "PATH", description = "Organization ceiling policy file or folder; repeatable.")
    List<Path> ceiling = new ArrayList<>();

    @Option(names = "--bind", paramLabel = "ADDR", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(names = "--port", description = "Forward-proxy port (default: ${DEFAULT-VALUE}; 0 = any free port).")
    int port = 3128;

    @Option(names = "--passthrough-port", description = "SNI/Host passthrough port for direct transport (-1 = off, the default).")
    int passthroughPort = -1;

    @Option(names = "--passthrough-tls-origin-port", description = "Origin port for TLS on the passthrough port (default: ${DEFAULT-VALUE}).")
    int passthroughTlsOriginPort = 443;

    @Option(names = "--passthrough-http-origin-port", description = "Origin port for plain HTTP on the passthrough port (default: ${DEFAULT-VALUE}).")
    int passthroughHttpOriginPort = 80;

    @Option(names = "--admin-port", description = "Loopback admin port: /halt, /health, /metrics (-1 = off, the default).")
    int adminPort = -1;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where the interception CA lives (default: ${DEFAULT-VALUE}).")
    Path dataDir = DEFAULT_DATA_DIR;

    /** Where the interception CA lives unless {@code --data-dir} says otherwise. */
    static final Path DEFAULT_DATA_DIR = Path.of(System.getProperty("user.home"), ".stockade", "proxy");

    @Option(names = "--audit", paramLabel = "FILE", description = "Audit log file (JSON lines); '-' for standard output (default).")
    String audit = "-";

    @Option(names = "--credentials", paramLabel = "FILE", description = "Credential file (JSON) for injection.")
    Path credentials;

    @Option(names = "--extra-trust", paramLabel = "PEM", description = "Extra CA certificates trusted for origins.")
    Path extraTrust;

    @Option(names = "--allow-private-ranges", description = "Let origins in private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) be dialed.")
    boolean allowPrivate;

    @Option(names = "--allow-private-host", paramLabel = "PATTERN",
            description = "Let this host (a domain pattern: git.corp.example, *.corp.example) resolve to private ranges while they stay refused for every other host; repeatable.")
    List<String> privateHosts = new ArrayList<>();

    @Option(names = "--deny-cidr", paramLabel = "CIDR", description = "Extra address range never dialed; repeatable.")
    List<String> denyCidrs = new ArrayList<>();

    @Option(names = "--resolve", paramLabel = "HOST=IP", description = "Resolve HOST to IP before DNS (the dial guard still applies); repeatable.")
    Map<String, String> resolve = Map.of();

    @Option(names = "--unsafe-allow-loopback-origins", description = "UNSAFE, for tests only: lets origins on loopback addresses be dialed.")
    boolean unsafeLoopback;

    @Option(names = "--max-header-bytes", description = "Largest request header block; larger gets 431 (default: ${DEFAULT-VALUE}).")
    int maxHeaderBytes = 32768;

    @Option(names = "--inspect-body-bytes", description = "Request body prefix inspected by the policy (default: ${DEFAULT-VALUE}).")
    int inspectBodyBytes = 64 * 1024;

    @Option(names = "--max-body-bytes", description = "Largest request body accepted; larger gets 413 (default: ${DEFAULT-VALUE}).")
    int maxBodyBytes = 16 * 1024 * 1024;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", description = "Closes idle connections (default: ${DEFAULT-VALUE}).")
    long idleSeconds = 300;

    @Option(names = "--handshake-timeout", paramLabel = "SECONDS", description = "Bound on TLS handshakes and the first record (default: ${DEFAULT-VALUE}).")
    long handshakeSeconds = 10;

    @Option(names = "--connect-timeout", paramLabel = "SECONDS", description = "Bound on dialing an origin (default: ${DEFAULT-VALUE}).")
    long connectSeconds = 10;

    @Option(names = "--request-head-timeout", paramLabel = "SECONDS", description = "Bound on every request head, from its first byte (default: ${DEFAULT-VALUE}).")
    long requestHeadSeconds = 30;

    @Option(names = "--request-body-timeout", paramLabel = "SECONDS", description = "Bound on every request body, from the end of its head (default: ${DEFAULT-VALUE}).")
    long requestBodySeconds = 120;

    @Option(names = "--origin-pool-idle", paramLabel = "SECONDS", description = "Closes a kept-alive origin connection idle this long (default: ${DEFAULT-VALUE}).")
    long originPoolIdleSeconds = 30;

    @Option(names = "--origin-pool-per-key", paramLabel = "N", description = "Idle origin connections kept per sandbox, host, port and address (default: ${DEFAULT-VALUE}).")
    int originPoolPerKey = 8;

    @Option(names = "--origin-pool-max", paramLabel = "N", description = "Idle origin connections kept in all; 0 turns reuse off (default: ${DEFAULT-VALUE}).")
    int originPoolMax = 256;

    @Option(names = "--max-connections", description = "Concurrent client connections of the sandbox (0 = unbounded, the default).")
    int maxConnections;

    @Option(names = "--sandbox", description = "Sandbox name written in audit lines.")
    String sandbox;

    @Option(names = "--halt-file", paramLabel = "FILE", description = "While this file exists, every request is denied and tunnels close.")
    Path haltFile;

    @Option(names = "--passthrough-io", paramLabel = "MODE",
            description = "Passthrough listener I/O: auto, epoll (native, kernel splice for bulk tunnels) or nio (default: ${DEFAULT-VALUE}).")
    ProxyConfig.PassthroughIo passthroughIo = ProxyConfig.PassthroughIo.AUTO;

    @Option(names = "--no-watch", description = "Do not reload policy files when they change.")
    boolean noWatch;

    @Override
    public Integer call() throws Exception {
        ProxyConfig config = config();
        checkSources();
        CredentialStore store = credentials == null ? CredentialStore.empty() : CredentialStore.file(credentials);
        PolicySource source = policies.isEmpty() ? null : PolicySource.load(policies, ceiling, System.err);
        if (source != null && !noWatch) {
            source.watch();
        }
        SandboxRegistry registry = sandboxFile != null ? SandboxRegistry.file(sandboxFile, System.err)
                : platform != null ? SandboxRegistry.dynamic() : null;
        Enforcement none = Enforcement.denyAll(dev.stockade.policy.eval.ReasonCode.POLICY_UNAVAILABLE,
                "no policy outside the sandboxes file");
        java.util.function.Supplier<Enforcement> fallback = source != null ? source : () -> none;
        AuditSink local = "-".equals(audit) ? AuditSink.stdout() : AuditSink.file(Path.of(audit));
        AuditSink sink = platform == null ? local : both(local, new dev.stockade.proxy.feed.PlatformAuditSink(platform,
                platformToken(), line -> System.err.println("stockade-proxy: " + line)));
        ProxyServer server = ProxyServer.start(config, fallback, sink, store, registry);
        System.err.println("stockade-proxy: forward proxy on " + bind + ":" + server.port()
                + (server.passthroughPort() >= 0 ? ", passthrough on " + bind + ":" + server.passthroughPort() : "")
                + (server.adminPort() >= 0 ? ", admin on 127.0.0.1:" + server.adminPort() : ""));
        System.err.println("stockade-proxy: interception CA certificate: " + server.caCertificate());
        ControlPlaneSource feed = platform == null ? null : follow(server, registry);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            closeAll(feed, server, source, registry, sink);
            stopped.countDown();
        }, "stockade-proxy-shutdown"));
        stopped.await();
        return 0;
    }

    /** Closes what is running, in the order that stops new work first ({@code null}s skipped). */
    private static void closeAll(AutoCloseable... running) {
        for (AutoCloseable c : running) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                System.err.println("stockade-proxy: while stopping: " + e.getMessage());
            }
        }
    }

    /** The policies come from files, a sandboxes file, or the platform's feed. */
    private void checkSources() {
        if (policies.isEmpty() && sandboxFile == null && platform == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "give --policy, --sandboxes or --platform");
        }
        if ((platform == null) != (platformTokenFile == null) || (platform != null && sandboxFile != null)) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--platform needs --platform-token-file (and excludes --sandboxes)");
        }
    }

    /** The proxy's configuration from the options, each checked. */
    private ProxyConfig config() throws java.net.UnknownHostException {
        for (String p : privateHosts) {
            String error = DialGuard.privateHostError(p);
            if (error != null) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--allow-private-host: " + error);
            }
        }
        ProxyConfig.Builder b = ProxyConfig.builder(dataDir).bindAddress(InetAddress.getByName(bind)).port(port)
                .passthroughPort(passthroughPort).passthroughTlsOriginPort(passthroughTlsOriginPort)
                .passthroughHttpOriginPort(passthroughHttpOriginPort).adminPort(adminPort).extraTrustPem(extraTrust)
                .allowLoopbackOriginsUnsafe(unsafeLoopback).allowPrivateRanges(allowPrivate).allowPrivateHosts(privateHosts).extraDenyCidrs(denyCidrs)
                .maxHeaderBytes(maxHeaderBytes).inspectBodyBytes(inspectBodyBytes).maxBodyBytes(maxBodyBytes)
                .idleTimeout(Duration.ofSeconds(idleSeconds)).handshakeTimeout(Duration.ofSeconds(handshakeSeconds))
                .connectTimeout(Duration.ofSeconds(connectSeconds)).requestHeadTimeout(Duration.ofSeconds(requestHeadSeconds))
                .requestBodyTimeout(Duration.ofSeconds(requestBodySeconds))
                .originPoolIdle(Duration.ofSeconds(originPoolIdleSeconds)).originPoolPerKey(originPoolPerKey)
                .originPoolMax(originPoolMax).maxConnectionsPerSandbox(maxConnections)
                .sandbox(sandbox).haltFile(haltFile).passthroughIo(passthroughIo);
        resolve.forEach(b::resolve);
        if (unsafeLoopback) {
            System.err.println("stockade-proxy: WARNING --unsafe-allow-loopback-origins is on: agents can reach loopback services");
        }
        return b.build();
    }

    /** The proxy token of {@code --platform-token-file}. */
    private String platformToken() throws java.io.IOException {
        String token = java.nio.file.Files.readString(platformTokenFile).strip();
        if (token.isEmpty()) {
            throw new java.io.IOException("proxy token file `" + platformTokenFile + "` is empty");
        }
        return token;
    }

    /** Every line to both sinks: the replica's own file or stdout, and the platform's audit trail. */
    private static AuditSink both(AuditSink first, AuditSink second) {
        return new AuditSink() {
            @Override
            public void record(AuditEvent event) {
                first.record(event);
                second.record(event);
            }

            @Override
            public void close() {
                first.close();
                second.close();
            }
        };
    }

    /** Follows the platform's proxy feed into {@code registry}; a halt closes the halted sandboxes' connections. */
    private ControlPlaneSource follow(ProxyServer server, SandboxRegistry registry) throws java.io.IOException {
        String token = platformToken();
        java.util.function.Consumer<String> log = line -> System.err.println("stockade-proxy: " + line);
        FeedApplier applier = new FeedApplier(registry, names -> log.accept("halt: closed "
                + server.closeSandboxConnections(names::contains) + " open connection(s)"), log);
        log.accept("following the platform at " + platform);
        return new ControlPlaneSource(platform, token, applier, log).start();
    }

    /** Entry point. */
    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new ProxyMain()).setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            // fail closed and say why, without a stack trace (messages never carry secrets)
            cmd.getErr().println("stockade-proxy: " + e.getMessage());
            return 2;
        });
        System.exit(cl.execute(args));
    }
}

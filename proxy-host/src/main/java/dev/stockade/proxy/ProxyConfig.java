package dev.stockade.proxy;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a proxy instance is bound to. Hardened limits are explicit, per instance.
 *
 * @param bindAddress          address the listeners bind to
 * @param port                 forward-proxy port, 0 for an ephemeral port
 * @param passthroughPort      SNI/Host passthrough port for direct transport, -1 to disable, 0 ephemeral
 * @param passthroughTlsOriginPort  origin port for TLS seen on the passthrough listener (443)
 * @param passthroughHttpOriginPort origin port for plain HTTP seen on the passthrough listener (80)
 * @param adminPort            loopback admin port, -1 to disable, 0 ephemeral
 * @param dataDir              where the interception CA lives
 * @param extraTrustPem        extra CA certificates (PEM) trusted for origins, {@code null} for none
 * @param allowLoopbackOriginsUnsafe UNSAFE, for tests only: lets origins on loopback addresses be dialed
 * @param allowPrivateRanges   lets private (RFC 1918, ULA, CGNAT) origins be dialed, for every host
 * @param allowPrivateHosts    host names (domain patterns, e.g. {@code git.corp.example}, {@code *.corp.example})
 *                             allowed to resolve to private ranges while the install refuses them for others
 * @param extraDenyCidrs       more ranges never dialed, e.g. {@code 203.0.113.0/24}
 * @param resolveOverrides     host to IP literal, consulted before DNS (like curl's --resolve)
 * @param maxHeaderBytes       largest request header block; larger gets 431
 * @param inspectBodyBytes     body prefix handed to the decider (GraphQL inspection)
 * @param maxBodyBytes         largest request body buffered; larger gets 413
 * @param leafCacheSize        bound on cached minted leaf certificates
 * @param idleTimeout          closes a connection idle this long
 * @param handshakeTimeout     bound on TLS handshakes (client side and origin side)
 * @param connectTimeout       bound on dialing an origin
 * @param requestHeadTimeout   bound on receiving every request's head, from its first byte (a connection's
 *                             first request: from the connection's start); a deadline, not an idle timer
 * @param requestBodyTimeout   bound on receiving a request's body, from the end of its head
 * @param maxConnectionsPerSandbox concurrent client connections per sandbox, 0 for unbounded
 * @param sandbox              sandbox name written in audit lines, {@code null} when none
 * @param haltFile             while this file exists every new request is denied; {@code null} for none
 * @param originPoolIdle       how long a kept-alive origin connection may sit idle in the pool
 * @param originPoolPerKey     idle origin connections kept per (sandbox, scheme, host, port, address, server name)
 * @param originPoolMax        idle origin connections kept in all; 0 turns origin connection reuse off
 * @param passthroughIo        the passthrough listener's I/O: native epoll with kernel splice, or JDK NIO
 */
public record ProxyConfig(
        InetAddress bindAddress,
        int port,
        int passthroughPort,
        int passthroughTlsOriginPort,
        int passthroughHttpOriginPort,
        int adminPort,
        Path dataDir,
        Path extraTrustPem,
        boolean allowLoopbackOriginsUnsafe,
        boolean allowPrivateRanges,
        List<String> allowPrivateHosts,
        List<String> extraDenyCidrs,
        Map<String, String> resolveOverrides,
        int maxHeaderBytes,
        int inspectBodyBytes,
        int maxBodyBytes,
        int leafCacheSize,
        Duration idleTimeout,
        Duration handshakeTimeout,
        Duration connectTimeout,
        Duration requestHeadTimeout,
        Duration requestBodyTimeout,
        int maxConnectionsPerSandbox,
        String sandbox,
        Path haltFile,
        Duration originPoolIdle,
        int originPoolPerKey,
        int originPoolMax,
        PassthroughIo passthroughIo) {

    /**
     * How the passthrough listener moves bytes. {@code EPOLL}: Netty's native epoll transport, and a
     * spliced tunnel that has carried {@code Splice.KERNEL_AFTER} bytes one way moves that direction with
     * {@code splice(2)} through a pipe, never copying it into the JVM. {@code NIO}: the JDK's
     * selector, every byte read into a buffer and written out. {@code AUTO} (the default) is epoll where
     * the native library loads (Linux x86_64 and aarch64), NIO elsewhere.
     */
    public enum PassthroughIo { AUTO, EPOLL, NIO }

    public ProxyConfig {
        allowPrivateHosts = List.copyOf(allowPrivateHosts); // checked by the dial guard when the proxy starts
        extraDenyCidrs = List.copyOf(extraDenyCidrs);
        resolveOverrides = Map.copyOf(resolveOverrides);
    }

    /** A builder starting from the defaults (loopback bind, 32768-byte headers, private ranges denied). */
    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    /** Mutable builder for {@link ProxyConfig}. */
    public static final class Builder {
        private InetAddress bindAddress = InetAddress.getLoopbackAddress();
        private int port = 3128;
        private int passthroughPort = -1;
        private int passthroughTlsOriginPort = 443;
        private int passthroughHttpOriginPort = 80;
        private int adminPort = -1;
        private final Path dataDir;
        private Path extraTrustPem;
        private boolean allowLoopbackOriginsUnsafe;
        private boolean allowPrivateRanges;
        private List<String> allowPrivateHosts = List.of();
        private List<String> extraDenyCidrs = List.of();
        private Map<String, String> resolveOverrides = new LinkedHashMap<>();
        private int maxHeaderBytes = 32768;
        private int inspectBodyBytes = 64 * 1024;
        private int maxBodyBytes = 16 * 1024 * 1024;
        private int leafCacheSize = 1024;
        private Duration idleTimeout = Duration.ofMinutes(5);
        private Duration handshakeTimeout = Duration.ofSeconds(10);
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration requestHeadTimeout = Duration.ofSeconds(30);
        private Duration requestBodyTimeout = Duration.ofSeconds(120);
        private Duration originPoolIdle = Duration.ofSeconds(30);
        private int originPoolPerKey = 8;
        private int originPoolMax = 256;
        private int maxConnectionsPerSandbox = 0;
        private String sandbox;
        private Path haltFile;
        private PassthroughIo passthroughIo = PassthroughIo.AUTO;

        private Builder(Path dataDir) {
            this.dataDir = dataDir;
        }

        public Builder bindAddress(InetAddress v) { bindAddress = v; return this; }
        public Builder port(int v) { port = v; return this; }
        public Builder passthroughPort(int v) { passthroughPort = v; return this; }
        public Builder passthroughTlsOriginPort(int v) { passthroughTlsOriginPort = v; return this; }
        public Builder passthroughHttpOriginPort(int v) { passthroughHttpOriginPort = v; return this; }
        public Builder adminPort(int v) { adminPort = v; return this; }
        public Builder extraTrustPem(Path v) { extraTrustPem = v; return this; }
        public Builder allowLoopbackOriginsUnsafe(boolean v) { allowLoopbackOriginsUnsafe = v; return this; }
        public Builder allowPrivateRanges(boolean v) { allowPrivateRanges = v; return this; }
        public Builder allowPrivateHosts(List<String> v) { allowPrivateHosts = v; return this; }
        public Builder extraDenyCidrs(List<String> v) { extraDenyCidrs = v; return this; }
        public Builder resolve(String host, String ip) { resolveOverrides.put(host, ip); return this; }
        public Builder maxHeaderBytes(int v) { maxHeaderBytes = v; return this; }
        public Builder inspectBodyBytes(int v) { inspectBodyBytes = v; return this; }
        public Builder maxBodyBytes(int v) { maxBodyBytes = v; return this; }
        public Builder leafCacheSize(int v) { leafCacheSize = v; return this; }
        public Builder idleTimeout(Duration v) { idleTimeout = v; return this; }
        public Builder handshakeTimeout(Duration v) { handshakeTimeout = v; return this; }
        public Builder connectTimeout(Duration v) { connectTimeout = v; return this; }
        public Builder requestHeadTimeout(Duration v) { requestHeadTimeout = v; return this; }
        public Builder requestBodyTimeout(Duration v) { requestBodyTimeout = v; return this; }
        public Builder maxConnectionsPerSandbox(int v) { maxConnectionsPerSandbox = v; return this; }
        public Builder sandbox(String v) { sandbox = v; return this; }
        public Builder haltFile(Path v) { haltFile = v; return this; }
        public Builder originPoolIdle(Duration v) { originPoolIdle = v; return this; }
        public Builder originPoolPerKey(int v) { originPoolPerKey = v; return this; }
        public Builder originPoolMax(int v) { originPoolMax = v; return this; }
        public Builder passthroughIo(PassthroughIo v) { passthroughIo = v; return this; }

        public ProxyConfig build() {
            return new ProxyConfig(bindAddress, port, passthroughPort, passthroughTlsOriginPort,
                    passthroughHttpOriginPort, adminPort, dataDir, extraTrustPem, allowLoopbackOriginsUnsafe,
                    allowPrivateRanges, allowPrivateHosts, extraDenyCidrs, resolveOverrides, maxHeaderBytes, inspectBodyBytes,
                    maxBodyBytes, leafCacheSize, idleTimeout, handshakeTimeout, connectTimeout, requestHeadTimeout,
                    requestBodyTimeout, maxConnectionsPerSandbox, sandbox, haltFile, originPoolIdle, originPoolPerKey, originPoolMax, passthroughIo);
        }
    }
}

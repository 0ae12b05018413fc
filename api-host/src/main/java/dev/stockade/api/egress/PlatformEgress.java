package dev.stockade.api.egress;

import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.kernel.audit.AuditAppender;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.sandbox.EgressEndpoint;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.Provisioner;
import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.proxy.CredentialStore;
import dev.stockade.proxy.ProxyConfig;
import dev.stockade.proxy.ProxyServer;
import dev.stockade.proxy.SandboxRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.runtime.event.annotation.EventListener;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The egress proxy of single-machine mode, run in the platform's JVM: proxy-host's server with a registry of
 * sandboxes fed from {@code sandbox_enforcement} (the same changes a separate proxy replica would stream), every
 * decision into the platform's audit trail. With the local provisioner it listens on the sandbox bridge's address,
 * the only address a sandbox can reach.
 */
@Context
public class PlatformEgress implements EgressEndpoint {
    private static final Logger LOG = LoggerFactory.getLogger(PlatformEgress.class);

    private final ProxyServer server;
    private final String host;
    private final String ca;
    private final EnforcementFollower follower;

    public PlatformEgress(PlatformConfig config, Provisioner provisioner, EnforcementStore store,
                          FeedBatches batches, AuditAppender audit, EventStream events,
                          dev.stockade.api.halt.HaltService halts, UnmeteredCalls unmetered,
                          @Value("${sandbox.egress.port:3128}") int port,
                          @Value("${sandbox.egress.bind:127.0.0.1}") String bind,
                          @Value("${sandbox.egress.allow-loopback-origins:false}") boolean loopbackOrigins,
                          @Value("${sandbox.egress.resolve:}") String resolve,
                          @Value("${sandbox.egress.extra-trust:}") String extraTrust) {
        try {
            if (provisioner instanceof LocalProvisioner local) {
                bind = sandboxNetwork(local, bind);
            }
            SandboxRegistry registry = SandboxRegistry.dynamic();
            java.util.concurrent.atomic.AtomicReference<ProxyServer> started = new java.util.concurrent.atomic.AtomicReference<>();
            this.follower = new EnforcementFollower(store, batches, registry, halts::haltedOrgs, names -> {
                ProxyServer s = started.get();
                if (s != null) {
                    LOG.info("halt: closed {} open connection(s) of {} sandbox(es)",
                            s.closeSandboxConnections(names::contains), names.size());
                }
            }, servedHere(provisioner));
            ProxyConfig.Builder b = ProxyConfig.builder(config.dataDir().resolve("egress"))
                    .bindAddress(InetAddress.getByName(bind)).port(port)
                    .allowLoopbackOriginsUnsafe(loopbackOrigins);
            overrides(resolve).forEach(b::resolve);
            if (!extraTrust.isBlank()) {
                b.extraTrustPem(java.nio.file.Path.of(extraTrust)); // origins signed by a private CA
            }
            Files.createDirectories(config.dataDir().resolve("egress"));
            this.server = ProxyServer.start(b.build(), () -> Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE,
                    "this listener serves sandboxes only"), new EgressAudit(audit, follower::owner, unmetered),
                    CredentialStore.empty(), registry);
            started.set(server);
            this.host = bind;
            this.ca = Files.readString(server.caCertificate());
            batches.onChange(follower::wake);
            events.subscribe(Topic.HALT, e -> follower.halt(e.orgId(), e.payload().path("halted").asBoolean()));
            LOG.info("egress proxy for sandboxes listening on {}:{}", bind, server.port());
        } catch (IOException e) {
            throw new UncheckedIOException("the egress proxy cannot start on " + bind + ":" + port, e);
        }
    }

    /**
     * The sandboxes this listener serves: those running on this host's bridge. A sandbox elsewhere (another
     * replica's host, a cluster) sends its traffic to that host's listener or to a proxy replica.
     */
    private static Predicate<String> servedHere(Provisioner provisioner) {
        if (provisioner instanceof LocalProvisioner local) {
            return local::runsHere;
        }
        return sandboxId -> false;
    }

    /** The bridge's address; where the bridge cannot be made (not root), the configured address, loudly. */
    private static String sandboxNetwork(LocalProvisioner local, String fallback) {
        try {
            local.prepareNetwork();
            return local.gateway();
        } catch (ProvisionException e) {
            LOG.error("local sandboxes cannot run on this host ({}); run the platform as root on Linux with"
                    + " bubblewrap and iproute2. The egress proxy listens on {} instead.", e.getMessage(), fallback);
            return fallback;
        }
    }

    /** After start (the database is migrated): load what every sandbox enforces. */
    @EventListener
    void onStartup(StartupEvent event) {
        follower.start();
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public String caCertificate() {
        return ca;
    }

    /** The highest enforcement version applied (tests wait for a change to be enforced). */
    public long appliedVersion() {
        return follower.applied();
    }

    @PreDestroy
    void close() {
        follower.close();
        server.close();
    }

    private static Map<String, String> overrides(String spec) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : spec.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
            }
        }
        return out;
    }
}

package dev.stockade.api.sandbox;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stockade.api.credentials.CredentialService;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.sandbox.provision.ProvisionException;
import dev.stockade.api.sandbox.provision.Provisioner;
import dev.stockade.api.sandbox.provision.SandboxSpec;
import io.micronaut.transaction.TransactionOperations;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runtime work after a sandbox change committed: provisioning, stopping and deleting through the {@link Provisioner},
 * on a small pool of worker threads (never an event loop), one operation at a time per sandbox in the order asked.
 * The result is written back as the sandbox's state ({@code running}, or {@code error} with a detail safe to show);
 * a sandbox stopped while it was being provisioned is stopped again when provisioning ends.
 */
@Singleton
public class SandboxWorker {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxWorker.class);

    private final SandboxStore store;
    private final SandboxPolicies policies;
    private final CredentialService credentials;
    private final Provisioner provisioner;
    private final EgressEndpoint egress;
    private final SecretBox box;
    private final TransactionOperations<Connection> tx;
    private final Clock clock;
    private final List<SandboxEnvSource> envSources;
    private final ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "sandbox-worker");
        t.setDaemon(true);
        return t;
    });
    private final Map<UUID, CompletableFuture<Void>> chains = new ConcurrentHashMap<>();
    /** Sandboxes whose records are deleted and whose runtime is not removed yet. */
    private final java.util.Set<UUID> deleting = ConcurrentHashMap.newKeySet();

    public SandboxWorker(SandboxStore store, SandboxPolicies policies, CredentialService credentials,
                         Provisioner provisioner, EgressEndpoint egress, SecretBox box,
                         TransactionOperations<Connection> tx, Clock clock, List<SandboxEnvSource> envSources) {
        this.envSources = List.copyOf(envSources);
        this.store = store;
        this.policies = policies;
        this.credentials = credentials;
        this.provisioner = provisioner;
        this.egress = egress;
        this.box = box;
        this.tx = tx;
        this.clock = clock;
    }

    /** Provisions the active revision (start, restart, recovery); completes when the state is written. */
    public CompletableFuture<Void> provision(UUID id) {
        return chain(id, () -> runProvision(id));
    }

    /**
     * Completes when the work this replica has queued for the sandbox so far has ended (at once when none): how a
     * caller waits for a start without polling.
     */
    public CompletableFuture<Void> pending(UUID id) {
        CompletableFuture<Void> last = chains.get(id);
        return last == null ? CompletableFuture.completedFuture(null) : last;
    }

    public CompletableFuture<Void> stop(UUID id) {
        return chain(id, () -> {
            try {
                provisioner.stop(id.toString());
            } catch (ProvisionException e) {
                LOG.warn("stopping sandbox {} failed: {}", id, e.getMessage());
            }
        });
    }

    public CompletableFuture<Void> delete(UUID id) {
        deleting.add(id);
        return chain(id, () -> removeRuntime(id));
    }

    private void removeRuntime(UUID id) {
        try {
            provisioner.delete(id.toString());
        } catch (ProvisionException e) {
            LOG.warn("deleting sandbox {} failed: {}", id, e.getMessage());
        } finally {
            deleting.remove(id);
        }
    }

    /**
     * At start, before provisioning: lets the provisioner reclaim what an earlier run left for sandboxes whose records
     * are gone (deleted just before a stop, their runtime never removed).
     */
    void recover() {
        provisioner.recover(id -> {
            try {
                return store.find(UUID.fromString(id)).isPresent();
            } catch (IllegalArgumentException notOurs) {
                return true; // not a sandbox id: keep it
            }
        });
    }

    /** The provisioner's view of a sandbox's runtime. */
    public Provisioner provisioner() {
        return provisioner;
    }

    /**
     * Stops the workers; deletions still queued run now, on this thread: their records are gone, so nothing would
     * remove their processes, network slot and volume at the next start. (Queued provisioning is dropped: the
     * platform provisions what should run when it starts again.)
     */
    @PreDestroy
    void close() {
        pool.shutdownNow();
        for (UUID id : java.util.List.copyOf(deleting)) {
            removeRuntime(id);
        }
    }

    private CompletableFuture<Void> chain(UUID id, Runnable work) {
        return chains.compute(id, (k, prev) -> (prev == null ? CompletableFuture.<Void>completedFuture(null) : prev)
                .handle((ok, err) -> null).thenRunAsync(work, pool));
    }

    private void runProvision(UUID id) {
        long t0 = System.nanoTime();
        Sandbox s = store.find(id).orElse(null);
        if (s == null || s.state() == SandboxState.STOPPED) {
            return; // deleted, or stopped before provisioning began
        }
        inTx(() -> store.transition(id, SandboxState.Transition.PROVISION, "", null, clock.instant()));
        try {
            long t1 = System.nanoTime();
            SandboxSpec spec = spec(s);
            long t2 = System.nanoTime();
            provisioner.provision(spec);
            long t3 = System.nanoTime();
            inTx(() -> {
                // the sandbox's row before its revision's, the order a delete locks them in (the row, then the
                // revisions its deletion cascades to): the other order deadlocked with a delete sent as a start ended
                boolean ready = store.transition(id, SandboxState.Transition.READY, "", null, clock.instant());
                store.recordProvisioned(id, s.activeRevision(), provisioned(s, spec));
                if (!ready) {
                    stopQuietly(id); // stopped (or deleted) while provisioning: do not leave it running
                }
                return null;
            });
            // where a start's time goes, for profiling (docs/benchmarks.md "Sandboxes")
            LOG.debug("sandbox {} provisioned: state {} ms, spec {} ms, provisioner {} ms, result {} ms", id,
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000,
                    (System.nanoTime() - t3) / 1_000_000);
        } catch (ProvisionException | RuntimeException e) {
            String detail = e instanceof ProvisionException ? e.getMessage() : "provisioning failed unexpectedly";
            LOG.warn("provisioning sandbox {} failed: {}", id, detail);
            inTx(() -> store.transition(id, SandboxState.Transition.FAIL, detail, null, clock.instant()));
        }
    }

    private SandboxSpec spec(Sandbox s) throws ProvisionException {
        String token = box.open(s.tokenSealed(), SandboxPolicies.tokenContext(s.id()));
        String apiUrl = provisioner.platformApiUrl();
        Map<String, String> env = PlatformEnv.of(policies.resolve(s).sandboxEnv(), apiUrl, token);
        envSources.forEach(source -> source.env(s, apiUrl, token).forEach(env::putIfAbsent));
        return new SandboxSpec(s.id().toString(), s.orgId().toString(), s.projectId().toString(), s.slug(),
                s.activeRevision(), s.config().image(), s.config().cpuMillis(), s.config().memoryBytes(), env,
                new SandboxSpec.EgressRoute(egress.host(), egress.port(), token, egress.caCertificate()),
                s.config().ports().stream().map(SandboxConfig.Port::port).toList());
    }

    /** The record a revision keeps of what it was provisioned with (no secret: credential names, env keys). */
    private ObjectNode provisioned(Sandbox s, SandboxSpec spec) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("at", clock.instant().toString());
        n.put("provisioner", provisioner.kind());
        n.set("config", s.config().toJson());
        var docs = n.putArray("policies");
        policies.grants(s.orgId(), s.config()).forEach(docs::add);
        var creds = n.putArray("credentials");
        List<UUID> ids = policies.credentialIds(s);
        credentials.visibleTo(s.projectId(), s.id()).stream().filter(c -> ids.contains(c.id()))
                .forEach(c -> creds.addObject().put("id", c.id().toString()).put("name", c.name()));
        var env = n.putArray("envKeys");
        spec.env().keySet().stream().sorted().forEach(env::add);
        return n;
    }

    private void stopQuietly(UUID id) {
        try {
            provisioner.stop(id.toString());
        } catch (ProvisionException e) {
            LOG.warn("stopping sandbox {} failed: {}", id, e.getMessage());
        }
    }

    private <T> T inTx(java.util.function.Supplier<T> work) {
        return tx.executeWrite(status -> work.get());
    }
}

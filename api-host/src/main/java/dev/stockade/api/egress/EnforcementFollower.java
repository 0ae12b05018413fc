package dev.stockade.api.egress;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.enforcement.CredentialMaterials;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.api.enforcement.SandboxEnforcement;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceMap;
import dev.stockade.proxy.Credential;
import dev.stockade.proxy.CredentialStore;
import dev.stockade.proxy.Decider;
import dev.stockade.proxy.PolicySource;
import dev.stockade.proxy.SandboxRegistry;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the proxy's sandbox registry equal to {@code sandbox_enforcement}: applies the changes after the last version
 * it applied, in order, whenever an {@code enforcement} event wakes it (and at start, from version 0). A sandbox whose
 * documents do not read or compile denies everything; a halted organization's sandboxes deny everything until the
 * halt is lifted, and their open connections are closed when it begins. One thread applies changes, so a sandbox's entries are replaced in version order.
 */
final class EnforcementFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EnforcementFollower.class);

    private record Entry(String digest, UUID orgId, UUID projectId, Decider compiled, AtomicReference<Decider> current) {
    }

    private final EnforcementStore store;
    private final CredentialMaterials materials;
    private final SandboxRegistry registry;
    private final Supplier<Set<UUID>> haltedAtStart;
    private final java.util.function.Consumer<Set<String>> closeConnections;
    private final Map<UUID, Entry> entries = new ConcurrentHashMap<>();
    private final Set<UUID> halted = ConcurrentHashMap.newKeySet();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "egress-enforcement");
        t.setDaemon(true);
        return t;
    });
    private volatile long applied;

    EnforcementFollower(EnforcementStore store, CredentialMaterials materials, SandboxRegistry registry,
                        Supplier<Set<UUID>> haltedAtStart, java.util.function.Consumer<Set<String>> closeConnections) {
        this.closeConnections = closeConnections;
        this.store = store;
        this.materials = materials;
        this.registry = registry;
        this.haltedAtStart = haltedAtStart;
    }

    void start() {
        thread.submit(() -> halted.addAll(haltedAtStart.get()));
        wake();
    }

    long applied() {
        return applied;
    }

    /** Applies what changed since the last applied version (on the follower's thread). */
    void wake() {
        thread.submit(this::catchUp);
    }

    void halt(UUID orgId, boolean on) {
        thread.submit(() -> {
            if (on) {
                halted.add(orgId);
            } else {
                halted.remove(orgId);
            }
            entries.values().stream().filter(e -> e.orgId().equals(orgId)).forEach(this::refresh);
            if (on) {
                // deny-all is in place: now close what is open (tunnels, sockets, kept-alive connections)
                Set<String> names = new java.util.HashSet<>();
                entries.forEach((id, e) -> {
                    if (e.orgId().equals(orgId)) {
                        names.add(id.toString());
                    }
                });
                closeConnections.accept(names);
            }
        });
    }

    /** Where the sandbox with this id belongs, for audit entries. */
    EgressAudit.Owner owner(String sandboxId) {
        try {
            Entry e = entries.get(UUID.fromString(sandboxId));
            return e == null ? null : new EgressAudit.Owner(e.orgId(), e.projectId());
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }

    private void catchUp() {
        try {
            List<EnforcementStore.Change> changes;
            do {
                changes = store.changesAfter(applied, 500);
                for (EnforcementStore.Change c : changes) {
                    apply(c);
                    applied = c.version();
                }
            } while (changes.size() == 500);
        } catch (RuntimeException e) {
            LOG.error("applying sandbox enforcement changes failed; the last applied sets stay", e);
        }
    }

    private void apply(EnforcementStore.Change c) {
        Entry old = entries.remove(c.sandboxId());
        if (old != null) {
            registry.remove(old.digest());
        }
        if (c.deleted() || c.enforcement().tokenHash() == null) {
            return;
        }
        SandboxEnforcement e = c.enforcement();
        Decider compiled = compile(e);
        Entry entry = new Entry(HexFormat.of().formatHex(e.tokenHash()), e.orgId(), e.projectId(), compiled,
                new AtomicReference<>());
        refresh(entry);
        entries.put(c.sandboxId(), entry);
        registry.put(entry.digest(), new SandboxRegistry.Sandbox(c.sandboxId().toString(), entry.current()::get,
                credentials(e)));
    }

    private void refresh(Entry e) {
        e.current().set(halted.contains(e.orgId())
                ? Decider.denyAll(ReasonCode.HALTED, "the organization is halted") : e.compiled());
    }

    private static Decider compile(SandboxEnforcement e) {
        List<Policy> grants = read(e.grants());
        List<Policy> ceiling = read(e.ceiling());
        if (grants == null || ceiling == null) {
            return Decider.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be read");
        }
        return PolicySource.compile(grants, ceiling);
    }

    private static List<Policy> read(List<JsonNode> docs) {
        List<Policy> out = new ArrayList<>();
        for (JsonNode doc : docs) {
            ReadResult r = PolicyReader.fromTree(doc, SourceMap.empty(), "platform", doc.toString());
            if (!r.valid()) {
                return null;
            }
            out.add(r.policy());
        }
        return out;
    }

    private CredentialStore credentials(SandboxEnforcement e) {
        List<Credential> out = new ArrayList<>();
        for (CredentialMaterials.Material m : materials.reveal(e.credentials())) {
            try {
                out.add(new Credential(Credential.idFor(m.name()), m.name(), m.secret(), m.domains(),
                        m.headerFormat()));
            } catch (IllegalArgumentException bad) {
                LOG.warn("credential `{}` of sandbox {} is not usable: {}", m.name(), e.sandboxId(), bad.getMessage());
            }
        }
        return CredentialStore.of(out);
    }
}

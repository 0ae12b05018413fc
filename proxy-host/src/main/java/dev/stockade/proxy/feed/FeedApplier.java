package dev.stockade.proxy.feed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourceMap;
import dev.stockade.proxy.Credential;
import dev.stockade.proxy.CredentialStore;
import dev.stockade.proxy.PolicySource;
import dev.stockade.proxy.SandboxRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Keeps a {@link SandboxRegistry#dynamic() dynamic registry} equal to what the platform says each sandbox enforces.
 * A set whose documents do not read or compile denies everything for that sandbox (fail closed); a halted
 * organization's sandboxes deny everything until the halt is lifted, and their open connections are closed when it
 * begins. Not thread-safe for writers: one thread applies changes (the feed's reader or the platform's follower), so
 * a sandbox's sets replace each other in version order; lookups ({@link #owner}) may come from any thread.
 */
public final class FeedApplier {

    /** Where a sandbox belongs, for audit lines. */
    public record Owner(String orgId, String projectId) {
    }

    /** Distinct documents kept read (about two per sandbox of a proxy with a few thousand sandboxes). */
    private static final int DOCUMENT_CACHE = 10_000;

    private record Entry(String digest, String orgId, String projectId, Enforcement compiled,
                         AtomicReference<Enforcement> current) {
    }

    private final SandboxRegistry registry;
    private final Consumer<Set<String>> closeConnections;
    private final Consumer<String> warn;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    /**
     * Documents already read, by their text: sandboxes share attached policies and a change rewrites every set that a
     * policy reaches while most of each set stays as it was, so reading (the core's strict validation, the costly
     * step) happens once per distinct document. Bounded; the applier's thread alone touches it.
     */
    private final Map<String, Policy> read = new java.util.LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Policy> eldest) {
            return size() > DOCUMENT_CACHE;
        }
    };
    private final Set<String> halted = ConcurrentHashMap.newKeySet();

    /**
     * @param registry         the registry the proxy identifies sandboxes with
     * @param closeConnections closes the open connections of the named sandboxes (on a halt)
     * @param warn             where a warning goes (never carries a secret)
     */
    public FeedApplier(SandboxRegistry registry, Consumer<Set<String>> closeConnections, Consumer<String> warn) {
        this.registry = registry;
        this.closeConnections = closeConnections;
        this.warn = warn;
    }

    /** Adds or replaces a sandbox's set. */
    public void apply(SandboxSet set) {
        remove(set.sandboxId());
        Entry entry = new Entry(set.tokenSha256(), set.orgId(), set.projectId(), compile(set),
                new AtomicReference<>());
        refresh(entry);
        entries.put(set.sandboxId(), entry);
        registry.put(entry.digest(), new SandboxRegistry.Sandbox(set.sandboxId(), entry.current()::get,
                credentials(set)));
    }

    /** Forgets a sandbox: its next connection is refused (407). */
    public void remove(String sandboxId) {
        Entry old = entries.remove(sandboxId);
        if (old != null) {
            registry.remove(old.digest());
        }
    }

    /** Replaces the set of halted organizations (a feed sends the whole set on connect and on every change). */
    public void halted(Set<String> orgs) {
        Set<String> started = new HashSet<>(orgs);
        started.removeAll(halted);
        Set<String> lifted = new HashSet<>(halted);
        lifted.removeAll(orgs);
        halted.addAll(started);
        halted.removeAll(lifted);
        entries.values().stream().filter(e -> started.contains(e.orgId()) || lifted.contains(e.orgId()))
                .forEach(this::refresh);
        if (!started.isEmpty()) {
            closeOpen(started);
        }
    }

    /** One organization's halt began ({@code on}) or was lifted. */
    public void halt(String orgId, boolean on) {
        Set<String> next = new HashSet<>(halted);
        if (on) {
            next.add(orgId);
        } else {
            next.remove(orgId);
        }
        halted(next);
    }

    /** Where the sandbox belongs, or empty for one this proxy does not serve. */
    public Optional<Owner> owner(String sandboxId) {
        Entry e = entries.get(sandboxId);
        return e == null ? Optional.empty() : Optional.of(new Owner(e.orgId(), e.projectId()));
    }

    /** How many sandboxes the proxy serves. */
    public int size() {
        return entries.size();
    }

    private void closeOpen(Set<String> orgs) {
        // deny-all is in place: now close what is open (tunnels, sockets, kept-alive connections)
        Set<String> names = new HashSet<>();
        entries.forEach((id, e) -> {
            if (orgs.contains(e.orgId())) {
                names.add(id);
            }
        });
        closeConnections.accept(names);
    }

    private void refresh(Entry e) {
        e.current().set(halted.contains(e.orgId())
                ? Enforcement.denyAll(ReasonCode.HALTED, "the organization is halted") : e.compiled());
    }

    private Enforcement compile(SandboxSet set) {
        List<Policy> grants = read(set.grants());
        List<Policy> ceiling = read(set.ceiling());
        if (grants == null || ceiling == null) {
            warn.accept("sandbox " + set.sandboxId() + ": its policy set does not read; it denies everything");
            return Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be read");
        }
        try {
            return PolicySource.compile(grants, ceiling);
        } catch (RuntimeException e) {
            warn.accept("sandbox " + set.sandboxId() + ": its policy set does not compile; it denies everything");
            return Enforcement.denyAll(ReasonCode.POLICY_UNAVAILABLE, "the sandbox's policy could not be compiled");
        }
    }

    private List<Policy> read(List<JsonNode> docs) {
        List<Policy> out = new ArrayList<>();
        for (JsonNode doc : docs) {
            String text = doc.toString();
            Policy p = read.get(text);
            if (p == null) {
                ReadResult r = PolicyReader.fromTree(doc, SourceMap.empty(), "platform", text);
                if (!r.valid()) {
                    return null;
                }
                p = r.policy();
                read.put(text, p);
            }
            out.add(p);
        }
        return out;
    }

    private CredentialStore credentials(SandboxSet set) {
        List<Credential> out = new ArrayList<>();
        for (SandboxSet.CredentialSpec c : set.credentials()) {
            try {
                out.add(new Credential(Credential.idFor(c.name()), c.name(), c.secret(), c.domains(),
                        c.headerFormat()));
            } catch (IllegalArgumentException bad) {
                warn.accept("sandbox " + set.sandboxId() + ": credential `" + c.name() + "` is not usable: "
                        + bad.getMessage());
            }
        }
        return CredentialStore.of(out);
    }
}

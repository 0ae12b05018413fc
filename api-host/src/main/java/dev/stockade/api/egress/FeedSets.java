package dev.stockade.api.egress;

import dev.stockade.api.enforcement.CredentialMaterials;
import dev.stockade.api.enforcement.EnforcementStore;
import dev.stockade.proxy.feed.SandboxParts;
import dev.stockade.proxy.feed.SandboxSet;
import jakarta.inject.Singleton;
import java.util.HexFormat;
import java.util.List;

/**
 * Turns a row of {@code sandbox_enforcement} into the set a proxy enforces: the documents by hash as stored, the
 * credentials' material revealed (the one place secrets leave their sealed form, for a proxy to inject them). Used by
 * the in-process proxy and by the feed that separate proxy replicas read.
 */
@Singleton
record FeedSets(CredentialMaterials materials) {
    /** How many rows one read takes. */
    static final int BATCH = 500;

    /**
     * The set of a change, its documents by hash and shared list, or null for a sandbox no proxy serves any more
     * (deleted, or without a token).
     */
    public SandboxParts set(EnforcementStore.ListedChange c) {
        if (c.deleted() || c.set().tokenHash() == null) {
            return null;
        }
        EnforcementStore.ListedSet e = c.set();
        List<SandboxSet.CredentialSpec> credentials = materials.reveal(e.credentials()).stream()
                .map(m -> new SandboxSet.CredentialSpec(m.name(), m.domains(), m.headerFormat(), m.secret()))
                .toList();
        return new SandboxParts(c.version(), c.sandboxId().toString(), c.orgId().toString(), e.projectId().toString(),
                HexFormat.of().formatHex(e.tokenHash()), e.grants(), e.ceiling(), credentials);
    }
}

package dev.stockade.api.kernel.access;

import java.util.Set;
import java.util.UUID;

/**
 * What the authorization of a request resolved: the organization and project its path named (null where the route
 * names none) and the caller's relations to them, which services use to narrow lists (for example the projects a
 * non-admin sees).
 */
public record Grant(UUID orgId, UUID projectId, Set<Relation> relations) {
    public boolean has(Relation r) {
        return relations.contains(r);
    }
}

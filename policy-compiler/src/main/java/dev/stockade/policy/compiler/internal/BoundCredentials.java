package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.model.CredentialBinding;
import dev.stockade.policy.model.Policy;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Stage "bound credentials": the names of the credentials the grant policies bind, each once, in the order first
 * bound. Binding is what lets an enforcement point set a credential's header on a request that lacks it; the ceiling
 * does not bind (it holds no secrets of its own), and a binding without a name binds nothing.
 */
public final class BoundCredentials {
    private BoundCredentials() {
    }

    public static List<String> of(List<Policy> grants) {
        Set<String> names = new LinkedHashSet<>();
        for (Policy p : grants) {
            if (p.credentials() == null) {
                continue;
            }
            for (CredentialBinding b : p.credentials()) {
                if (b != null && b.credentialName() != null) {
                    names.add(b.credentialName());
                }
            }
        }
        return List.copyOf(names);
    }
}

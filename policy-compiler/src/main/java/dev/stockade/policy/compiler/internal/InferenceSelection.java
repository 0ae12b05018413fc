package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Provider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stage "managed inference": whether it is on, and which backends, by the layer rule of spec
 * "managedInference object" rule 4 and the default-provider rule of spec "Endpoints".
 */
public final class InferenceSelection {
    private InferenceSelection() {
    }

    /** The resolved block; {@code enabled == false} with no provider and an empty list when off. */
    public static ManagedInference select(InstallFacts install, List<Policy> ceiling, List<Policy> grants) {
        boolean on = layerOn(grants) && (ceiling.isEmpty() || layerOn(ceiling));
        if (!on) {
            return off();
        }
        ManagedInference chosen = lastExplicit(grants);
        if (chosen == null) {
            chosen = lastExplicit(ceiling);
        }
        Provider provider;
        List<Provider> providers;
        if (chosen != null) {
            // A list without `provider` has bedrock as its primary (validation keeps bedrock in that list).
            provider = chosen.provider() == null ? Provider.BEDROCK : chosen.provider();
            providers = chosen.providers() == null ? List.of(provider) : List.copyOf(chosen.providers());
        } else {
            provider = install.defaultProvider();
            if (provider == null) {
                return off(); // nothing to serve: the install has no backend at all
            }
            providers = List.of(provider);
        }
        return new ManagedInference(true, provider, providers, env(grants));
    }

    private static ManagedInference off() {
        return new ManagedInference(false, null, List.of(), Map.of());
    }

    /** On when some policy of the layer enables it and none explicitly disables it. */
    private static boolean layerOn(List<Policy> layer) {
        boolean any = false;
        for (Policy p : layer) {
            ManagedInference mi = p.managedInference();
            if (mi == null || mi.enabled() == null) {
                continue;
            }
            if (!mi.enabled()) {
                return false;
            }
            any = true;
        }
        return any;
    }

    private static ManagedInference lastExplicit(List<Policy> layer) {
        ManagedInference last = null;
        for (Policy p : layer) {
            ManagedInference mi = p.managedInference();
            if (mi != null && mi.isEnabled() && (mi.provider() != null || mi.providers() != null)) {
                last = mi;
            }
        }
        return last;
    }

    /** managedInference.env of the grants, later policies winning per key. */
    private static Map<String, String> env(List<Policy> grants) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Policy p : grants) {
            ManagedInference mi = p.managedInference();
            if (mi != null && mi.env() != null) {
                env.putAll(mi.env());
            }
        }
        return env;
    }
}

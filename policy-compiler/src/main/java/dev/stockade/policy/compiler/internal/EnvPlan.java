package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.model.CredentialBinding;
import dev.stockade.policy.model.CredentialPlaceholder;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Provider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stage "sandbox environment": policy env, managed-inference env, credential sentinels and the
 * platform's inference variables, in that order; later sources win per key.
 */
public final class EnvPlan {
    /** Base URL template of a backend; the runtime expands {@code ${PLATFORM_API_URL}}. */
    public static final String BASE_URL_TEMPLATE = "${PLATFORM_API_URL}/llm/";
    /** Model variables looked up, in order, for {@code PLATFORM_MANAGED_INFERENCE_MODEL}. */
    public static final List<String> MODEL_VARIABLES = List.of("ANTHROPIC_MODEL", "OPENAI_MODEL");

    private EnvPlan() {
    }

    /** The sandbox environment for {@code grants} with the resolved managed inference {@code mi}. */
    public static Map<String, String> plan(List<Policy> grants, ManagedInference mi) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Policy p : grants) {
            if (p.env() != null) {
                putUser(env, p.env());
            }
        }
        if (mi.isEnabled() && mi.env() != null) {
            putUser(env, mi.env());
        }
        for (Policy p : grants) {
            if (p.credentials() == null) {
                continue;
            }
            for (CredentialBinding c : p.credentials()) {
                if (c.envVarKey() != null && c.credentialName() != null && !platformOwned(c.envVarKey())) {
                    env.put(c.envVarKey(), sentinel(c.credentialName()));
                }
            }
        }
        if (mi.isEnabled()) {
            for (Provider provider : mi.providers()) {
                env.put("PLATFORM_INFERENCE_" + provider.envName() + "_BASE_URL", BASE_URL_TEMPLATE + provider.wire());
                env.put("PLATFORM_INFERENCE_" + provider.envName() + "_API_KEY",
                        "__platform_inference_key:" + provider.wire() + "__");
            }
            env.put("PLATFORM_MANAGED_INFERENCE_PROVIDER", mi.provider().wire());
            for (String variable : MODEL_VARIABLES) {
                String model = env.get(variable);
                if (model != null && !model.isEmpty()) {
                    env.put("PLATFORM_MANAGED_INFERENCE_MODEL", model);
                    break;
                }
            }
        }
        return env;
    }

    /** The placeholder the platform swaps for the credential: a name-based (v3) UUID of its name. */
    public static String sentinel(String credentialName) {
        return CredentialPlaceholder.forName(credentialName).text();
    }

    private static void putUser(Map<String, String> env, Map<String, String> values) {
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (!platformOwned(e.getKey())) {
                env.put(e.getKey(), e.getValue());
            }
        }
    }

    /** The managed-inference marker variables belong to the platform; a policy cannot set or spoof them. */
    static boolean platformOwned(String key) {
        return key.startsWith("PLATFORM_INFERENCE_") || key.startsWith("PLATFORM_MANAGED_INFERENCE_");
    }
}

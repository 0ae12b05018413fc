package dev.stockade.runtime.webhook;

import dev.stockade.runtime.json.MalformedJson;
import dev.stockade.runtime.provider.ProviderException;

/** A short, secret-free description of why a run failed, for the failure notice. */
final class AgentFailure {
    private AgentFailure() {
    }

    static String describe(Exception e) {
        if (e instanceof ProviderException p) {
            return p.getMessage();
        }
        if (e instanceof MalformedJson m) {
            return "the stored payload " + m.getMessage();
        }
        return "internal error: " + e.getClass().getSimpleName();
    }
}

package dev.stockade.api.kernel.config;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;
import java.util.ArrayList;
import java.util.List;

/** Validates every configuration group at boot and refuses to start with one line per problem. */
@Context
final class ConfigCheck {
    ConfigCheck(PlatformConfig platform, OidcConfig oidc, HubConfig hub, InferenceConfig inference) {
        List<String> problems = new ArrayList<>();
        problems.addAll(platform.problems());
        problems.addAll(oidc.problems());
        problems.addAll(hub.problems());
        problems.addAll(inference.problems());
        if (platform.dataDir() == null) {
            problems.add("config.dataDir: required (stockade serve sets it from --data-dir)");
        }
        if (!problems.isEmpty()) {
            throw new ConfigurationException("invalid configuration:\n  - " + String.join("\n  - ", problems));
        }
    }
}

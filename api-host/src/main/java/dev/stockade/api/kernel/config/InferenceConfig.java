package dev.stockade.api.kernel.config;

import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.model.Provider;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The installation's {@code inference.*} values: which managed-inference backends it serves, where each is, and the
 * install's own key for each (a named secret, never inline). The kernel holds them because resolution (governance)
 * and the proxy (inference) both read them.
 *
 * @param deploymentKeyFallback whether an organization without its own key uses the install's (spec 0.30.0: default
 *                              true)
 * @param openai                {@code inference.openai.*}
 * @param azure                 {@code inference.azure.*}: the Foundry resource, e.g. {@code https://r.services.ai.azure.com}
 * @param openrouter            {@code inference.openrouter.*}
 * @param litellm               {@code inference.litellm.*}
 * @param bedrock               {@code inference.bedrock.*}
 * @param bedrockMantle         {@code inference.bedrock-mantle.*}
 * @param maxStreamDuration     the longest one upstream call may stream before the proxy cuts it
 * @param readTimeout           how long a backend may stay silent within an answer before the call is cut
 * @param maxConnections        connections the proxy holds open to one backend host (each open stream holds one)
 * @param allowLoopbackUnsafe   allow backends on loopback (tests, a LiteLLM beside the platform)
 * @param allowPrivateRanges    allow backends in private ranges (a LiteLLM on the platform's own network)
 * @param privateHosts          host names (domain patterns) allowed to resolve to private ranges
 * @param pricesFile            a price table to use instead of the one shipped (same format), read at boot
 */
@ConfigurationProperties("inference")
public record InferenceConfig(
        @Bindable(defaultValue = "true") boolean deploymentKeyFallback,
        Openai openai,
        Azure azure,
        Openrouter openrouter,
        Litellm litellm,
        Bedrock bedrock,
        BedrockMantle bedrockMantle,
        @Bindable(defaultValue = "10m") Duration maxStreamDuration,
        @Bindable(defaultValue = "5m") Duration readTimeout,
        @Bindable(defaultValue = "512") int maxConnections,
        @Bindable(defaultValue = "false") boolean allowLoopbackUnsafe,
        @Bindable(defaultValue = "false") boolean allowPrivateRanges,
        @Nullable List<String> privateHosts,
        @Nullable String pricesFile) {

    public InferenceConfig {
        privateHosts = privateHosts == null ? List.of() : List.copyOf(privateHosts);
    }

    /** One backend's values: whether the install serves it, its base URL, and the secret holding its key. */
    public interface Backend {
        boolean enabled();

        @Nullable
        String baseUrl();

        /** The name of the secret (a directory under {@code <dataDir>/secrets/}) holding the key; empty: none. */
        String apiKeySecret();
    }

    /** {@code inference.openai.*} (spec 0.23.0: GPT only, {@code inference.openai.baseUrl}). */
    @ConfigurationProperties("openai")
    public record Openai(@Bindable(defaultValue = "false") boolean enabled,
                         @Bindable(defaultValue = "https://api.openai.com") String baseUrl,
                         @Bindable(defaultValue = "") String apiKeySecret) implements Backend {
    }

    /** {@code inference.azure.*}: a Foundry resource serving both wire formats. */
    @ConfigurationProperties("azure")
    public record Azure(@Bindable(defaultValue = "false") boolean enabled, @Nullable String baseUrl,
                        @Bindable(defaultValue = "") String apiKeySecret) implements Backend {
    }

    /** {@code inference.openrouter.*}. */
    @ConfigurationProperties("openrouter")
    public record Openrouter(@Bindable(defaultValue = "false") boolean enabled,
                             @Bindable(defaultValue = "https://openrouter.ai/api") String baseUrl,
                             @Bindable(defaultValue = "") String apiKeySecret) implements Backend {
    }

    /** {@code inference.litellm.*} (spec 0.29.0: baseUrl, forwardTags). */
    @ConfigurationProperties("litellm")
    public record Litellm(@Bindable(defaultValue = "false") boolean enabled, @Nullable String baseUrl,
                          @Bindable(defaultValue = "") String apiKeySecret,
                          @Bindable(defaultValue = "false") boolean forwardTags) implements Backend {
    }

    /** {@code inference.bedrock.*}: a region-templated endpoint; {@code {region}} is replaced per call. */
    @ConfigurationProperties("bedrock")
    public record Bedrock(@Bindable(defaultValue = "false") boolean enabled,
                          @Bindable(defaultValue = "https://bedrock-runtime.{region}.amazonaws.com") String baseUrl,
                          @Bindable(defaultValue = "") String apiKeySecret,
                          @Bindable(defaultValue = "false") boolean ambientCredentials) implements Backend {
    }

    /** {@code inference.bedrock-mantle.*}: region-templated like Bedrock. */
    @ConfigurationProperties("bedrock-mantle")
    public record BedrockMantle(@Bindable(defaultValue = "false") boolean enabled,
                                @Bindable(defaultValue = "https://bedrock-mantle.{region}.api.aws") String baseUrl,
                                @Bindable(defaultValue = "") String apiKeySecret) implements Backend {
    }

    /** The backend's values for {@code provider}. */
    public Backend backend(Provider provider) {
        return switch (provider) {
            case OPENAI -> openai;
            case AZURE -> azure;
            case OPENROUTER -> openrouter;
            case LITELLM -> litellm;
            case BEDROCK -> bedrock;
            case BEDROCK_MANTLE -> bedrockMantle;
        };
    }

    /** Whether the install serves {@code provider} at all (an organization may still bring the key). */
    public boolean serves(Provider provider) {
        return backend(provider).enabled();
    }

    /** Whether the install has its own key for {@code provider}. */
    public boolean hasDeploymentKey(Provider provider) {
        return serves(provider) && !backend(provider).apiKeySecret().isBlank();
    }

    /**
     * What resolution needs to know: the backends served with the install's own key, in the order of
     * {@link Provider}, and whether Bedrock may be offered without a key ({@code inference.bedrock.ambientCredentials}).
     */
    public InstallFacts installFacts() {
        List<Provider> served = new ArrayList<>();
        for (Provider p : Provider.values()) {
            if (hasDeploymentKey(p)) {
                served.add(p);
            }
        }
        return new InstallFacts(served, bedrock.enabled() && bedrock.ambientCredentials());
    }

    /** Every problem with these values, one line each. */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        check(out, "openai", openai);
        check(out, "azure", azure);
        check(out, "openrouter", openrouter);
        check(out, "litellm", litellm);
        check(out, "bedrock", bedrock);
        check(out, "bedrock-mantle", bedrockMantle);
        if (maxStreamDuration.isNegative() || maxStreamDuration.isZero()) {
            out.add("inference.maxStreamDuration: must be positive");
        }
        if (readTimeout.isNegative() || readTimeout.isZero()) {
            out.add("inference.readTimeout: must be positive");
        }
        if (maxConnections < 1 || maxConnections > 10_000) {
            out.add("inference.maxConnections: " + maxConnections + " must be between 1 and 10000");
        }
        return out;
    }

    private static void check(List<String> out, String name, Backend b) {
        if (!b.enabled()) {
            return;
        }
        String url = b.baseUrl();
        if (url == null || url.isBlank()) {
            out.add("inference." + name + ".baseUrl: required when inference." + name + ".enabled is true");
            return;
        }
        try {
            URI u = URI.create(url.replace("{region}", "region"));
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
                out.add("inference." + name + ".baseUrl: `" + url + "` must be an absolute http(s) URL");
            }
        } catch (IllegalArgumentException e) {
            out.add("inference." + name + ".baseUrl: `" + url + "` is not a URL");
        }
    }
}

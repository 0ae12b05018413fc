package dev.stockade.proxy;

import dev.stockade.policy.eval.HostName;
import dev.stockade.policy.eval.RequestTarget;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The model vendors whose API hosts the egress proxy recognises, each with its host patterns: a sandbox reaching one
 * directly bypasses the platform's metered {@code /llm} proxy, so its audit lines are flagged (spec: "Unmetered direct
 * provider calls by a sandbox escape limits and are flagged"). The one list of such hosts, shared by the proxy and the
 * platform.
 */
public enum ModelVendor {
    OPENAI("openai", "api.openai.com"),
    AZURE("azure", "*.openai.azure.com", "*.services.ai.azure.com", "*.cognitiveservices.azure.com"),
    // the region is one label that always holds a dash (us-east-1, us-gov-west-1); a whole-label `*` is leftmost only
    BEDROCK("bedrock", "bedrock-runtime.*-*.amazonaws.com", "bedrock-runtime-fips.*-*.amazonaws.com"),
    BEDROCK_MANTLE("bedrock-mantle", "bedrock-mantle.*-*.api.aws"),
    OPENROUTER("openrouter", "openrouter.ai"),
    ANTHROPIC("anthropic", "api.anthropic.com"),
    GOOGLE("google", "generativelanguage.googleapis.com", "aiplatform.googleapis.com", "*-aiplatform.googleapis.com"),
    MISTRAL("mistral", "api.mistral.ai"),
    COHERE("cohere", "api.cohere.com", "api.cohere.ai"),
    GROQ("groq", "api.groq.com"),
    DEEPSEEK("deepseek", "api.deepseek.com"),
    XAI("xai", "api.x.ai"),
    TOGETHER("together", "api.together.xyz"),
    FIREWORKS("fireworks", "api.fireworks.ai"),
    PERPLEXITY("perplexity", "api.perplexity.ai");

    /** One host pattern and whose it is. */
    private record Host(ModelVendor vendor, Glob glob) {
    }

    /**
     * The patterns by their last two labels (always literal, checked at load): a host is tried only against the few
     * that end as it does, so the common answer, no vendor, costs one map lookup after the host is read.
     */
    private static final Map<String, List<Host>> BY_SUFFIX = index();

    private final String wire;
    private final List<Glob> hosts;

    ModelVendor(String wire, String... patterns) {
        this.wire = wire;
        this.hosts = List.of(patterns).stream().map(ModelVendor::compile).toList();
    }

    private static Glob compile(String pattern) {
        GlobResult r = Glob.compile(GlobKind.DOMAIN, pattern);
        if (!r.ok() || r.glob() == null) {
            // INVARIANT: the patterns above are constants; a bad one must stop the class from loading, not be skipped
            throw new ExceptionInInitializerError("bad provider host pattern `" + pattern + "`: " + r.errors());
        }
        return r.glob();
    }

    private static Map<String, List<Host>> index() {
        Map<String, List<Host>> out = new HashMap<>();
        for (ModelVendor v : values()) {
            for (Glob g : v.hosts) {
                List<String> labels = g.labels();
                String suffix = labels.size() < 2 ? "*" : suffix(String.join(".", labels.subList(labels.size() - 2,
                        labels.size())));
                if (suffix == null || suffix.contains("*")) {
                    throw new ExceptionInInitializerError("provider host pattern `" + g.text()
                            + "` must end in two literal labels");
                }
                out.computeIfAbsent(suffix, k -> new ArrayList<>()).add(new Host(v, g));
            }
        }
        return Map.copyOf(out);
    }

    /** The last two labels of a host in normal form, {@code null} for a single label. */
    private static String suffix(String name) {
        int last = name.lastIndexOf('.');
        if (last <= 0) {
            return null;
        }
        return name.substring(name.lastIndexOf('.', last - 1) + 1);
    }

    /**
     * The vendor as audit lines write it: the platform's provider value where the vendor is one of its managed
     * backends ({@code openai}, {@code azure}, {@code bedrock}, {@code bedrock-mantle}, {@code openrouter}), else the
     * vendor's own name.
     */
    public String wire() {
        return wire;
    }

    /** The host patterns, in the policy's domain syntax (docs/globs.md), for documentation and tests. */
    public List<String> hostPatterns() {
        return hosts.stream().map(Glob::text).toList();
    }

    /**
     * The vendor whose API {@code host} is, if any. The host is read as the proxy reads targets ({@link HostName}: IDNA
     * UTS #46, lower case, one trailing dot dropped); a {@code host:port} authority is accepted and its port ignored; an
     * IP literal, a malformed host or {@code null} is no vendor's. Linear in the host's length: the patterns are the
     * project's non-backtracking domain globs.
     */
    public static Optional<ModelVendor> ofHost(String host) {
        String name = name(host);
        String suffix = name == null ? null : suffix(name);
        for (Host h : suffix == null ? List.<Host>of() : BY_SUFFIX.getOrDefault(suffix, List.of())) {
            if (h.glob().matches(name)) {
                return Optional.of(h.vendor());
            }
        }
        return Optional.empty();
    }

    private static String name(String text) {
        if (text == null || text.isEmpty() || text.length() > 1024) {
            return null;
        }
        HostName h = HostName.parse(text) instanceof HostName parsed ? parsed : null;
        if (h == null && !text.startsWith("[")
                && RequestTarget.authority(text, 0) instanceof RequestTarget.Authority a) {
            h = a.host(); // `host:port`: the port says nothing about whose API it is
        }
        return h == null || h.isAddress() ? null : h.value();
    }
}

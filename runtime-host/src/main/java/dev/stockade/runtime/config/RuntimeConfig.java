package dev.stockade.runtime.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The runtime's validated configuration. {@link #load} never throws for a bad value: it collects one
 * line per problem (each stops startup) and one per warning (logged, a fallback applies).
 */
public final class RuntimeConfig {
    private final Settings settings;
    private final List<String> problems;
    private final List<String> warnings;
    private final ProviderKind provider;
    private final int port;
    private final Path dataDir;
    private final Path databaseFile;
    private final Integer contextWindowTokens;
    private final int compactionThresholdPercent;
    private final int compactionTailMessages;
    private final int meetingTimeoutMinutes;
    private final int meetingAdmissionTimeoutSeconds;
    private final String publicUrl;
    private final VoiceEndpoint voice;
    private final ProviderEndpoints endpoints;
    private final ChildEnvironment childEnvironment;

    private RuntimeConfig(Settings s, ChildEnvironment childEnvironment) {
        this.childEnvironment = childEnvironment;
        List<String> p = new ArrayList<>(s.problems());
        List<String> w = new ArrayList<>(s.warnings());
        this.settings = s;
        this.provider = provider(s, w);
        this.port = intIn(s, "PORT", 0, 65535, p);
        this.dataDir = Path.of(s.value("AGENT_DATA_DIR"));
        this.databaseFile = databaseFile(s.value("DATABASE_URL"), p);
        this.contextWindowTokens = positiveOrIgnored(s, "CONTEXT_WINDOW_TOKENS", w);
        this.compactionThresholdPercent = intIn(s, "COMPACTION_THRESHOLD_PERCENT", 0, 100, p);
        this.compactionTailMessages = intIn(s, "COMPACTION_TAIL_MESSAGES", 0, 10_000, p);
        this.meetingTimeoutMinutes = positiveOrDefault(s, "MEETING_TIMEOUT_MINUTES", w);
        this.meetingAdmissionTimeoutSeconds = positiveOrDefault(s, "MEETING_ADMISSION_TIMEOUT_SECONDS", w);
        this.publicUrl = publicUrl(s, p);
        checkAgentId(s, p);
        checkOptionalUrl(s, "PLATFORM_API_URL", p);
        checkOptionalUrl(s, "OPENAI_BASE_URL", p);
        checkOptionalUrl(s, "MODEL_CATALOG_URL", p);
        checkOptionalUrl(s, "PLATFORM_INFERENCE_OPENAI_BASE_URL", p);
        checkFoundry(s, p);
        if (Sentinels.isSentinel(s.value("GOOGLE_BOT_PASSWORD"))) {
            w.add("GOOGLE_BOT_PASSWORD: a sentinel does not work here; meetings need the plain-text password");
        }
        this.voice = VoiceEndpoint.resolve(s, p);
        this.endpoints = ProviderEndpoints.resolve(s, provider, w);
        this.problems = List.copyOf(p);
        this.warnings = List.copyOf(w);
    }

    /** Resolves and validates the configuration from the process environment and the data home's .env. */
    public static RuntimeConfig load(Map<String, String> env, String userHome) {
        return new RuntimeConfig(Settings.resolve(env, userHome), ChildEnvironment.of(env));
    }

    private static ProviderKind provider(Settings s, List<String> warnings) {
        ProviderKind k = ProviderKind.parse(s.value("LLM_PROVIDER"));
        if (k == null) {
            warnings.add("LLM_PROVIDER: " + Redaction.quote("LLM_PROVIDER", s.value("LLM_PROVIDER"))
                    + " is not bedrock, bedrock-mantle, azure or openai; using bedrock");
            return ProviderKind.BEDROCK;
        }
        return k;
    }

    private static int intIn(Settings s, String name, int min, int max, List<String> problems) {
        String raw = s.value(name);
        try {
            int v = Integer.parseInt(raw.strip());
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // reported below
        }
        problems.add(name + ": " + Redaction.quote(name, raw) + " must be an integer from " + min + " to " + max);
        return Integer.parseInt(s.get(name).variable().defaultValue());
    }

    private static Integer positiveOrIgnored(Settings s, String name, List<String> warnings) {
        String raw = s.value(name);
        if (raw == null) {
            return null;
        }
        Integer v = positive(raw);
        if (v == null) {
            warnings.add(name + ": " + Redaction.quote(name, raw) + " is not a positive integer; ignored");
        }
        return v;
    }

    private static int positiveOrDefault(Settings s, String name, List<String> warnings) {
        String raw = s.value(name);
        Integer v = positive(raw);
        int fallback = Integer.parseInt(s.get(name).variable().defaultValue());
        if (v == null) {
            warnings.add(name + ": " + Redaction.quote(name, raw) + " is not a positive integer; using " + fallback);
            return fallback;
        }
        return v;
    }

    private static Integer positive(String raw) {
        try {
            int v = Integer.parseInt(raw.strip());
            return v > 0 ? v : null;
        } catch (NumberFormatException | NullPointerException e) {
            return null;
        }
    }

    private static Path databaseFile(String url, List<String> problems) {
        String u = url.strip();
        String path = u.startsWith("file:") ? u.substring("file:".length())
                : u.startsWith("jdbc:sqlite:") ? u.substring("jdbc:sqlite:".length()) : null;
        if (path == null || path.isBlank() || path.contains("?") || path.equals(":memory:")) {
            problems.add("DATABASE_URL: " + Redaction.quote("DATABASE_URL", url) + " must be a SQLite file URL such as file:/data/agent.db");
            return Path.of("agent.db");
        }
        return Path.of(path.startsWith("//") ? path.substring(2) : path);
    }

    private static String publicUrl(Settings s, List<String> problems) {
        String raw = s.nonBlank("AGENT_PUBLIC_URL");
        if (raw == null) {
            return null;
        }
        return httpUrl("AGENT_PUBLIC_URL", raw, problems) == null ? null : Settings.stripSlash(raw);
    }

    private static void checkAgentId(Settings s, List<String> problems) {
        String id = s.nonBlank("AGENT_ID");
        if (id == null) {
            return;
        }
        try {
            UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            problems.add("AGENT_ID: " + Redaction.quote("AGENT_ID", id) + " is not a UUID");
        }
    }

    private static void checkOptionalUrl(Settings s, String name, List<String> problems) {
        String v = s.nonBlank(name);
        if (v != null) {
            httpUrl(name, v, problems);
        }
    }

    private static void checkFoundry(Settings s, List<String> problems) {
        String v = s.nonBlank("AZURE_FOUNDRY_BASE_URL");
        if (v != null && httpUrl("AZURE_FOUNDRY_BASE_URL", v, problems) != null
                && !Settings.stripSlash(v).endsWith("/anthropic/v1")) {
            problems.add("AZURE_FOUNDRY_BASE_URL: " + Redaction.quote("AZURE_FOUNDRY_BASE_URL", v) + " must end at /anthropic/v1");
        }
    }

    /** Parses an http(s) URL with a host, adding a problem (and returning null) otherwise. */
    static URI httpUrl(String name, String value, List<String> problems) {
        try {
            URI u = new URI(value.strip());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && u.getHost() != null) {
                return u;
            }
        } catch (Exception e) {
            // reported below
        }
        problems.add(name + ": " + Redaction.quote(name, value) + " is not an http:// or https:// URL with a host");
        return null;
    }

    public Settings settings() {
        return settings;
    }

    /** Problems that stop startup, one line each. */
    public List<String> problems() {
        return problems;
    }

    /** Fallbacks applied, one line each (logged at boot). */
    public List<String> warnings() {
        return warnings;
    }

    public ProviderKind provider() {
        return provider;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path databaseFile() {
        return databaseFile;
    }

    /** The assumed context window for every model, or {@code null} to use the catalog. */
    public Integer contextWindowTokens() {
        return contextWindowTokens;
    }

    public int compactionThresholdPercent() {
        return compactionThresholdPercent;
    }

    public int compactionTailMessages() {
        return compactionTailMessages;
    }

    public int meetingTimeoutMinutes() {
        return meetingTimeoutMinutes;
    }

    public int meetingAdmissionTimeoutSeconds() {
        return meetingAdmissionTimeoutSeconds;
    }

    /** AGENT_PUBLIC_URL without trailing slashes (path prefix kept), or {@code null}. */
    public String publicUrl() {
        return publicUrl;
    }

    public VoiceEndpoint voice() {
        return voice;
    }

    public ProviderEndpoints endpoints() {
        return endpoints;
    }

    /** The allowlisted part of the environment the configuration was loaded from, for the agent's children. */
    public ChildEnvironment childEnvironment() {
        return childEnvironment;
    }

    /** Shorthand for {@link Settings#value}. */
    public String value(String name) {
        return settings.value(name);
    }
}

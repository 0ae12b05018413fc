package dev.stockade.runtime.config;

import java.util.List;

/** Every variable of runtime.md's configuration tables, in resolution order, with its default. */
public final class Variables {
    static final String PROVIDER = "Provider selection";
    static final String PLATFORM = "Platform (injected)";
    static final String CREDENTIALS = "Credentials";
    static final String CORE = "Core";
    static final String SERVICE = "Models";
    static final String COMPACTION = "Compaction";
    static final String VOICE = "Voice meetings";
    static final String OBSERVABILITY = "Observability and installer";

    /** The fixed owner of a local install when OWNER_USER_ID is unset. */
    public static final String LOCAL_OWNER = "00000000-0000-4000-8000-000000000001";
    /** The display name of an agent created without AGENT_NAME. */
    public static final String DEFAULT_AGENT_NAME = "Stockade Agent";

    /** Resolution order matters: a default may refer to a variable listed before it. */
    public static final List<Variable> ALL = List.of(
            Variable.plain(OBSERVABILITY, "AGENT_HOME", "${user.home}/.stockade-agent"),
            Variable.plain(CORE, "AGENT_DATA_DIR", "${AGENT_HOME}/data"),
            Variable.plain(PROVIDER, "LLM_PROVIDER", "bedrock"),
            Variable.plain(PROVIDER, "PLATFORM_API_URL", null),
            Variable.plain(PLATFORM, "PLATFORM_INFERENCE_BEDROCK_BASE_URL", null),
            Variable.secret(PLATFORM, "PLATFORM_INFERENCE_BEDROCK_API_KEY"),
            Variable.plain(PLATFORM, "PLATFORM_INFERENCE_BEDROCK_MANTLE_BASE_URL", null),
            Variable.secret(PLATFORM, "PLATFORM_INFERENCE_BEDROCK_MANTLE_API_KEY"),
            Variable.plain(PLATFORM, "PLATFORM_INFERENCE_AZURE_BASE_URL", null),
            Variable.secret(PLATFORM, "PLATFORM_INFERENCE_AZURE_API_KEY"),
            Variable.plain(PLATFORM, "PLATFORM_INFERENCE_OPENAI_BASE_URL", null),
            Variable.secret(PLATFORM, "PLATFORM_INFERENCE_OPENAI_API_KEY"),
            Variable.plain(PLATFORM, "PLATFORM_MANAGED_INFERENCE_PROVIDER", null),
            Variable.plain(PLATFORM, "PLATFORM_MANAGED_INFERENCE_MODEL", null),
            Variable.secret(CREDENTIALS, "AWS_BEARER_TOKEN_BEDROCK"),
            Variable.secret(CREDENTIALS, "AWS_ACCESS_KEY_ID"),
            Variable.secret(CREDENTIALS, "AWS_SECRET_ACCESS_KEY"),
            Variable.secret(CREDENTIALS, "AZURE_API_KEY"),
            Variable.plain(CREDENTIALS, "AZURE_RESOURCE_NAME", null),
            Variable.plain(CREDENTIALS, "AZURE_FOUNDRY_BASE_URL", null),
            Variable.secret(CREDENTIALS, "OPENAI_API_KEY"),
            Variable.plain(CREDENTIALS, "OPENAI_BASE_URL", null),
            Variable.secret(CREDENTIALS, "SLACK_BOT_TOKEN"),
            Variable.secret(CREDENTIALS, "SLACK_APP_TOKEN"),
            Variable.plain(CREDENTIALS, "SLACK_EXPECTED_APP_ID", null),
            Variable.plain(CREDENTIALS, "SLACK_API_URL", "https://slack.com/api/"),
            Variable.plain(CORE, "PORT", "3003"),
            Variable.plain(CORE, "DATABASE_URL", "file:${AGENT_DATA_DIR}/agent.db"),
            Variable.plain(CORE, "AGENT_ID", null),
            Variable.plain(CORE, "AGENT_NAME", DEFAULT_AGENT_NAME),
            Variable.plain(CORE, "TEAM_NAME", "Local"),
            Variable.plain(CORE, "OWNER_USER_ID", LOCAL_OWNER),
            Variable.plain(CORE, "SHELL_WORKSPACE_ROOT", "${AGENT_HOME}/workspace"),
            Variable.plain(CORE, "AGENT_SKILLS_DIR", "${AGENT_DATA_DIR}/skills"),
            Variable.plain(CORE, "AGENT_PLUGINS_DIR", "${AGENT_DATA_DIR}/plugins"),
            Variable.plain(CORE, "AGENT_PUBLIC_URL", null),
            Variable.plain(SERVICE, "BEDROCK_MODEL_ID", "us.anthropic.claude-opus-5"),
            Variable.plain(SERVICE, "BEDROCK_CLASSIFICATION_MODEL_ID", "us.anthropic.claude-haiku-4-5"),
            Variable.plain(SERVICE, "BEDROCK_EMBEDDING_MODEL_ID", "amazon.titan-embed-text-v2:0"),
            Variable.plain(SERVICE, "AWS_REGION", "us-east-1"),
            Variable.plain(SERVICE, "AZURE_MODEL_ID", "claude-opus-5"),
            Variable.plain(SERVICE, "AZURE_CLASSIFICATION_MODEL_ID", "claude-haiku-4-5"),
            Variable.plain(SERVICE, "AZURE_EMBEDDING_MODEL_ID", "text-embedding-3-small"),
            Variable.plain(SERVICE, "AZURE_API_VERSION", "2025-04-01-preview"),
            Variable.plain(SERVICE, "OPENAI_MODEL_ID", "gpt-5.6-sol"),
            Variable.plain(SERVICE, "OPENAI_CLASSIFICATION_MODEL_ID", "gpt-5.6-luna"),
            Variable.plain(SERVICE, "OPENAI_EMBEDDING_MODEL_ID", "text-embedding-3-small"),
            Variable.plain(SERVICE, "CONTEXT_WINDOW_TOKENS", null),
            Variable.plain(SERVICE, "MODEL_CATALOG_URL", null),
            Variable.plain(COMPACTION, "COMPACTION_THRESHOLD_PERCENT", "90"),
            Variable.plain(COMPACTION, "COMPACTION_TAIL_MESSAGES", "6"),
            Variable.plain(VOICE, "OPENAI_REALTIME_URL", null),
            Variable.secret(VOICE, "OPENAI_REALTIME_API_KEY"),
            Variable.plain(VOICE, "OPENAI_REALTIME_MODEL", "gpt-realtime-2.1"),
            Variable.plain(VOICE, "OPENAI_REALTIME_VOICE", "marin"),
            Variable.plain(VOICE, "OPENAI_TRANSCRIPTION_MODEL", "gpt-live-transcribe"),
            Variable.plain(VOICE, "GOOGLE_BOT_EMAIL", null),
            Variable.secret(VOICE, "GOOGLE_BOT_PASSWORD"),
            Variable.plain(VOICE, "MEETING_TIMEOUT_MINUTES", "60"),
            Variable.plain(VOICE, "MEETING_ADMISSION_TIMEOUT_SECONDS", "300"),
            Variable.plain(VOICE, "HTTPS_PROXY", null),
            Variable.secret(OBSERVABILITY, "LANGFUSE_SECRET_KEY"),
            Variable.plain(OBSERVABILITY, "LANGFUSE_PUBLIC_KEY", null),
            Variable.plain(OBSERVABILITY, "LANGFUSE_BASE_URL", "http://localhost:3100"),
            Variable.plain(OBSERVABILITY, "OTEL_EXPORTER_OTLP_ENDPOINT", null),
            Variable.secret(OBSERVABILITY, "OTEL_EXPORTER_OTLP_API_KEY"),
            Variable.plain(OBSERVABILITY, "DEPLOYMENT_ENVIRONMENT", "development"),
            Variable.plain(OBSERVABILITY, "AGENT_HTTP_URL", "http://localhost:${PORT}"));

    private Variables() {
    }
}

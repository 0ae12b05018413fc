package dev.stockade.api.connectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Response bodies of the connector routes and tools. A field marked {@code NON_NULL} is left out when it does not
 * apply; an {@code Optional} one marked so is left out when null and written as {@code null} when empty (a key that
 * applies but has no value), as the API always answered.
 */
public final class ConnectorViews {
    private ConnectorViews() {
    }

    /**
     * A connector as the API shows it: {@code documentUrl} only for an HTTP connector (null when its document was
     * given inline), the names and descriptions of its active tools, never a credential.
     */
    @Introspected
    public record ConnectorView(UUID id, UUID projectId, String name, String kind, String url,
                                @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Optional<String> documentUrl,
                                String status, @Nullable String lastError, @Nullable UUID activeSpecId,
                                List<ToolSummary> tools, String createdBy, Instant createdAt,
                                @Nullable Instant syncedAt) {
    }

    /** A tool by name and description. */
    @Introspected
    public record ToolSummary(String name, String description) {
    }

    /** A tool a discovery found, with the schema of its arguments. */
    @Introspected
    public record DiscoveredTool(String name, String description, JsonNode inputSchema) {
    }

    /** What {@code discover/preview} found at a URL: its tools, or why it failed. */
    @Introspected
    public record Preview(boolean ok, @Nullable String error, List<DiscoveredTool> tools) {
    }

    /** Whether a URL answers as an MCP server, with how many tools and how long the discovery took. */
    @Introspected
    public record ConnectionCheck(boolean ok, @Nullable String error, int toolCount, long durationMs) {
    }

    /** A spec (a discovered tool list): {@code active}, {@code pending} or {@code superseded}. */
    @Introspected
    public record SpecView(UUID id, UUID serverId, String status, String digest, Instant createdAt, JsonNode tools) {
        static SpecView of(ConnectorStore.Spec s) {
            return new SpecView(s.id(), s.serverId(), s.status(), s.digest(), s.createdAt(), s.tools());
        }
    }

    /** What promoting a pending spec would change: tool names added, removed and changed, each sorted. */
    @Introspected
    public record SpecDiff(UUID specId, @Nullable UUID activeSpecId, List<String> added, List<String> removed,
                           List<String> changed) {
    }

    /**
     * A re-discovery: {@code error} when it failed; otherwise whether the tool list {@code changed}, and the spec it
     * made active (a first discovery) or pending (a changed list).
     */
    @Introspected
    public record SyncResult(String status, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String error,
                             @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Boolean changed,
                             @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID activeSpecId,
                             @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable UUID pendingSpecId) {
    }

    /** A tool entry of the active spec and whether it is shown (a hidden entry is never exposed). */
    @Introspected
    public record Entry(String name, String description, boolean visible) {
    }

    /** An entry's visibility after a change. */
    @Introspected
    public record EntryVisibility(String name, boolean visible) {
    }

    /** Where a person authorizes an OAuth credential, the redirect URI, and how long the link is valid (seconds). */
    @Introspected
    public record OAuthStart(String authorizationUrl, String redirectUri, long expiresIn) {
    }

    /** An OAuth application the operator configured (never its client secret). */
    @Introspected
    public record Application(String name, String issuer, String authorizationEndpoint, String clientId,
                              List<String> scopes) {
        static Application of(OAuthApplication a) {
            return new Application(a.name(), a.issuer(), a.authorizationEndpoint(), a.clientId(), a.scopes());
        }
    }

    /**
     * How a URL wants to be authorized: whether an unauthenticated call is refused, the protected resource metadata
     * found (its URL, {@code resource}, authorization servers) and the operator's applications whose issuer is one
     * of them; {@code error} when the URL could not be reached.
     */
    @Introspected
    public record AuthorizationDiscovery(String url,
                                         @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
                                         Boolean requiresAuthorization,
                                         @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
                                         String resourceMetadataUrl,
                                         @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
                                         Optional<String> resource,
                                         @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
                                         List<String> authorizationServers,
                                         @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
                                         List<String> applications,
                                         @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String error) {
    }

    /** A project's connectors. */
    @Introspected
    public record Connectors(List<ConnectorView> items) {
    }

    /** A connector's pending specs. */
    @Introspected
    public record Specs(List<SpecView> items) {
    }

    /** A connector's credentials (never their secrets). */
    @Introspected
    public record CredentialList(List<ConnectorCredentials.View> items) {
    }

    /** The operator's OAuth applications. */
    @Introspected
    public record Applications(List<Application> items) {
    }

    /** A connector's tool entries. */
    @Introspected
    public record Entries(List<Entry> items) {
    }
}

package dev.stockade.api.signin;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.stockade.api.kernel.access.Access;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.config.OidcConfig;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.identity.ProtectedResource;
import dev.stockade.api.kernel.web.ApiProblem;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;

/**
 * Discovery: RFC 9728 protected-resource metadata for the MCP endpoints and the REST API (in every mode, naming the
 * authorization server that signs people in), and, for the embedded provider, RFC 8414 / OpenID discovery metadata
 * and its JWKS.
 */
@Controller
@Tag(name = "sign-in")
@ExecuteOn(TaskExecutors.BLOCKING)
class MetadataController {
    /** RFC 9728 section 2. */
    @Introspected
    record ResourceMetadata(String resource,
                            @JsonProperty("authorization_servers") List<String> authorizationServers,
                            @JsonProperty("bearer_methods_supported") List<String> bearerMethodsSupported,
                            @JsonProperty("resource_name") String resourceName) {
    }

    /** RFC 8414 section 2 (also served as the OpenID discovery document). */
    @Introspected
    record ServerMetadata(String issuer, String description,
                          @JsonProperty("authorization_endpoint") String authorizationEndpoint,
                          @JsonProperty("token_endpoint") String tokenEndpoint,
                          @JsonProperty("registration_endpoint") String registrationEndpoint,
                          @JsonProperty("revocation_endpoint") String revocationEndpoint,
                          @JsonProperty("jwks_uri") String jwksUri,
                          @JsonProperty("response_types_supported") List<String> responseTypesSupported,
                          @JsonProperty("grant_types_supported") List<String> grantTypesSupported,
                          @JsonProperty("code_challenge_methods_supported") List<String> codeChallengeMethodsSupported,
                          @JsonProperty("token_endpoint_auth_methods_supported") List<String> tokenAuthMethods,
                          @JsonProperty("revocation_endpoint_auth_methods_supported") List<String> revocationAuthMethods,
                          @JsonProperty("subject_types_supported") List<String> subjectTypesSupported,
                          @JsonProperty("authorization_response_iss_parameter_supported") boolean issParameter) {
    }

    private final PlatformConfig config;
    private final OidcConfig oidc;
    private final SigningKeys keys;

    MetadataController(PlatformConfig config, OidcConfig oidc, SigningKeys keys) {
        this.config = config;
        this.oidc = oidc;
        this.keys = keys;
    }

    @Get(uris = {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/v1"},
            produces = MediaType.APPLICATION_JSON)
    @Access(Action.SIGNIN)
    ResourceMetadata rest() {
        return describe(ProtectedResource.rest(config), "Stockade REST API");
    }

    @Get(uris = "/.well-known/oauth-protected-resource/mcp", produces = MediaType.APPLICATION_JSON)
    @Access(Action.SIGNIN)
    ResourceMetadata mcp() {
        return describe(ProtectedResource.mcp(config, "/mcp").orElseThrow(), "Stockade MCP (organization-wide)");
    }

    @Get(uris = "/.well-known/oauth-protected-resource/projects/{projectId}/mcp", produces = MediaType.APPLICATION_JSON)
    @Access(Action.SIGNIN)
    ResourceMetadata projectMcp(@PathVariable String projectId) {
        ProtectedResource r = ProtectedResource.mcp(config, "/projects/" + projectId + "/mcp")
                .orElseThrow(() -> ApiProblem.notFound("project MCP endpoint"));
        return describe(r, "Stockade MCP (one project)");
    }

    @Get(uris = {"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"},
            produces = MediaType.APPLICATION_JSON)
    @Access(Action.SIGNIN)
    ServerMetadata server() {
        requireEmbedded();
        String base = config.effectivePublicUrl();
        return new ServerMetadata(base, SignInPages.EMBEDDED_LABEL, base + "/signin/authorize", base + "/signin/token",
                base + "/signin/register", base + "/signin/revoke", base + "/signin/jwks", List.of("code"),
                List.of("authorization_code", "refresh_token"), List.of("S256"), List.of("none"), List.of("none"),
                List.of("public"), true);
    }

    @Get(uris = "/signin/jwks", produces = MediaType.APPLICATION_JSON)
    @Access(Action.SIGNIN)
    HttpResponse<Map<String, Object>> jwks() {
        requireEmbedded();
        return HttpResponse.ok(keys.publicKeys().toJSONObject(true)).header("Cache-Control", "max-age=300");
    }

    private ResourceMetadata describe(ProtectedResource resource, String name) {
        String server = oidc.enabled() ? oidc.issuer() : config.effectivePublicUrl();
        return new ResourceMetadata(resource.uri(), List.of(server), List.of("header"), name);
    }

    private void requireEmbedded() {
        if (oidc.enabled()) {
            throw ApiProblem.notFound("the embedded sign-in's metadata (this installation signs in through "
                    + oidc.issuer() + ")");
        }
    }
}

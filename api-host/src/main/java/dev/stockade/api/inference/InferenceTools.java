package dev.stockade.api.inference;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Managed inference as MCP tools: which backends an organization can use (day to day), and which of its own keys
 * are stored (a signed-in org administrator). Keys are set through REST, the CLI or the admin UI only: a key passed
 * as a tool argument would travel through an agent's context.
 */
@Singleton
record InferenceTools(ProviderCatalog catalog, InferenceKeys keys) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("list_inference_providers", "The managed-inference backends an organization can"
                        + " use, whose key each call sends (the organization's or the deployment's), and the default"
                        + " backend a policy naming none receives.", ToolFamily.DAY_TO_DAY,
                        Action.ORG_INFERENCE_PROVIDERS_READ,
                        Schema.object().uuid("orgId", "The organization").required("orgId"),
                        (caller, grant, args) -> catalog.of(grant.orgId())),
                new PlatformTool("list_inference_keys", "Which backends an organization has its own key for (never"
                        + " the key).", ToolFamily.ORG_LIFECYCLE, Action.INFERENCE_KEYS_MANAGE,
                        Schema.object().uuid("orgId", "The organization").required("orgId"),
                        (caller, grant, args) -> new InferenceViews.Keys(keys.stored(grant.orgId()).stream()
                                .map(InferenceViews.KeyView::of).toList())));
    }
}

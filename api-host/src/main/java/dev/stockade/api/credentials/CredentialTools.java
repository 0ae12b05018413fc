package dev.stockade.api.credentials;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import jakarta.inject.Singleton;
import java.util.List;

/** Credentials as an MCP tool: listed without their secrets, as over REST. */
@Singleton
record CredentialTools(CredentialService credentials) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(new PlatformTool("list_credentials", "List a project's credentials (never their secrets).",
                ToolFamily.DAY_TO_DAY, Action.CREDENTIALS_READ,
                Schema.inProject().required("projectId"),
                (caller, grant, args) -> CredentialController.page(credentials.list(grant))));
    }
}

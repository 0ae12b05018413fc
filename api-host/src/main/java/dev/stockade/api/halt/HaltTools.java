package dev.stockade.api.halt;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The emergency halt as an MCP tool: reading it only. Halting and lifting are the admin UI's and the REST API's alone
 * (spec: "Halt is available in the admin UI and the REST API only"), so an agent cannot halt or lift through MCP.
 */
@Singleton
record HaltTools(HaltService halts) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("get_halt_status", "Whether an organization is halted, since when and by whom.",
                        ToolFamily.DAY_TO_DAY, Action.HALT_READ,
                        Schema.inOrg().required("orgId"),
                        (caller, grant, args) -> halts.get(grant.orgId())));
    }
}

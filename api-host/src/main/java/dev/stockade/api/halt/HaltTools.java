package dev.stockade.api.halt;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import dev.stockade.api.kernel.tools.ToolArgs;
import jakarta.inject.Singleton;
import java.util.List;

/** The emergency halt as MCP tools: read it (day to day), set or lift it (org lifecycle). */
@Singleton
record HaltTools(HaltService halts) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("get_halt_status", "Whether an organization is halted, since when and by whom.",
                        ToolFamily.DAY_TO_DAY, Action.HALT_READ,
                        Schema.inOrg().required("orgId"),
                        (caller, grant, args) -> halts.get(grant.orgId())),
                new PlatformTool("set_org_halt", "Halt an organization (managed inference, connector calls, both"
                        + " proxies and cluster access stop; sandboxes keep running) or lift the halt.",
                        ToolFamily.ORG_LIFECYCLE, Action.HALT_WRITE,
                        Schema.inOrg().bool("halted", "true halts, false lifts")
                                .required("orgId", "halted"),
                        (caller, grant, args) -> halts.set(caller, grant.orgId(), ToolArgs.bool(args, "halted"))));
    }
}

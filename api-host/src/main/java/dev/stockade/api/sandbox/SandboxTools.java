package dev.stockade.api.sandbox;

import static dev.stockade.api.kernel.tools.ToolArgs.object;
import static dev.stockade.api.kernel.tools.ToolArgs.uuid;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.tools.Deleted;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Sandboxes as MCP tools: reading and operating them is day to day; creating and deleting them is the full sandbox
 * tool set (project admins); a sandbox reads its own record.
 */
@Singleton
record SandboxTools(SandboxService sandboxes) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("list_sandboxes", "List a project's sandboxes with their state.", ToolFamily.DAY_TO_DAY,
                        Action.SANDBOX_READ, Schema.inProject().required("projectId"),
                        (caller, grant, args) -> SandboxViews.page(sandboxes.list(grant))),
                new PlatformTool("get_sandbox", "Read a sandbox.", ToolFamily.DAY_TO_DAY, Action.SANDBOX_READ,
                        one(), (caller, grant, args) -> SandboxViews.of(sandboxes.get(grant, uuid(args, "sandboxId")))),
                new PlatformTool("start_sandbox", "Start a stopped sandbox.", ToolFamily.DAY_TO_DAY,
                        Action.SANDBOX_OPERATE, one(), (caller, grant, args) -> SandboxViews.of(sandboxes.start(caller,
                                grant, uuid(args, "sandboxId")))),
                new PlatformTool("stop_sandbox", "Stop a running sandbox (its disk is kept).", ToolFamily.DAY_TO_DAY,
                        Action.SANDBOX_OPERATE, one(), (caller, grant, args) -> SandboxViews.of(sandboxes.stop(caller,
                                grant, uuid(args, "sandboxId")))),
                new PlatformTool("restart_sandbox", "Restart a sandbox with its active revision.", ToolFamily.DAY_TO_DAY,
                        Action.SANDBOX_OPERATE, one(), (caller, grant, args) -> SandboxViews.of(sandboxes.restart(caller,
                                grant, uuid(args, "sandboxId")))),
                new PlatformTool("create_sandbox", "Create a sandbox from a sandbox document (the same JSON as POST"
                        + " /v1/projects/{projectId}/sandboxes).", ToolFamily.SANDBOX_ADMIN, Action.SANDBOX_WRITE,
                        Schema.inProject().object("sandbox", "The sandbox document").required("projectId", "sandbox"),
                        (caller, grant, args) -> SandboxViews.of(sandboxes.create(caller, grant,
                                object(args, "sandbox")))),
                new PlatformTool("delete_sandbox", "Delete a sandbox, its disk and the credentials it owns.",
                        ToolFamily.SANDBOX_ADMIN, Action.SANDBOX_WRITE, one(), (caller, grant, args) -> {
                            sandboxes.delete(caller, grant, uuid(args, "sandboxId"));
                            return new Deleted(uuid(args, "sandboxId"));
                        }),
                new PlatformTool("get_own_sandbox", "Read the sandbox this agent runs in: its state, project and"
                        + " revision.", ToolFamily.SELF, Action.SANDBOX_SELF_READ, Schema.object().required(),
                        (caller, grant, args) -> {
                            if (!(caller instanceof Identity.SandboxToken s)) {
                                throw new ApiProblem(ProblemCode.FORBIDDEN, "only a sandbox has an own sandbox");
                            }
                            return SandboxViews.of(sandboxes.byToken(s.tokenId()).orElseThrow(() ->
                                    ApiProblem.notFound("sandbox of this token (it was issued to no sandbox)")));
                        }));
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode one() {
        return Schema.inProject().uuid("sandboxId", "The sandbox").required("projectId", "sandboxId");
    }
}

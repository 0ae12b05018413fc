package dev.stockade.api.governance;

import static dev.stockade.api.kernel.tools.ToolArgs.object;
import static dev.stockade.api.kernel.tools.ToolArgs.text;
import static dev.stockade.api.kernel.tools.ToolArgs.uuid;

import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Policies as MCP tools: org policies read, project policies read and written (the core validates every write), and
 * drafts checked without saving.
 */
@Singleton
record PolicyTools(PolicyService policies) implements PlatformTool.Provider {
    private static final String DOCUMENT = "The policy document as text (YAML or JSON); lines and columns refer to it";

    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("list_org_policies", "List an organization's policies (the ceiling of its projects).",
                        ToolFamily.DAY_TO_DAY, Action.ORG_POLICIES_READ,
                        Schema.inOrg().required("orgId"),
                        (caller, grant, args) -> page(grant)),
                new PlatformTool("list_project_policies", "List a project's policies.", ToolFamily.DAY_TO_DAY,
                        Action.PROJECT_POLICIES_READ, Schema.inProject()
                                .required("projectId"),
                        (caller, grant, args) -> page(grant)),
                new PlatformTool("get_project_policy", "Read one policy of a project.", ToolFamily.DAY_TO_DAY,
                        Action.PROJECT_POLICIES_READ, Schema.inProject()
                                .uuid("policyId", "The policy").required("projectId", "policyId"),
                        (caller, grant, args) -> PolicyController.view(policies.get(grant, uuid(args, "policyId")))),
                new PlatformTool("create_project_policy", "Create a project policy from a policy document (the same"
                        + " JSON as POST /v1/projects/{projectId}/policies).", ToolFamily.DAY_TO_DAY,
                        Action.PROJECT_POLICIES_WRITE, Schema.inProject()
                                .object("policy", "The policy document").required("projectId", "policy"),
                        (caller, grant, args) -> PolicyController.view(policies.create(caller, grant,
                                object(args, "policy")))),
                new PlatformTool("update_project_policy", "Replace a project policy's document.",
                        ToolFamily.DAY_TO_DAY, Action.PROJECT_POLICIES_WRITE,
                        Schema.inProject().uuid("policyId", "The policy")
                                .object("policy", "The new policy document").required("projectId", "policyId", "policy"),
                        (caller, grant, args) -> PolicyController.view(policies.update(caller, grant,
                                uuid(args, "policyId"), object(args, "policy")))),
                new PlatformTool("policy_check", "Check a policy document (YAML or JSON text) as `stockade policy"
                        + " lint` does, without saving it: problems with line, column and caret, and the describe"
                        + " rows of a valid document.", ToolFamily.DAY_TO_DAY, Action.ORG_POLICIES_READ,
                        Schema.inOrg().string("document", DOCUMENT).required("orgId", "document"),
                        (caller, grant, args) -> PolicyCheck.of(text(args, "document"))),
                new PlatformTool("project_policy_check", "Check a policy document for a project, as `policy_check`"
                        + " does for an organization.", ToolFamily.DAY_TO_DAY, Action.PROJECT_POLICIES_READ,
                        Schema.inProject().string("document", DOCUMENT).required("projectId", "document"),
                        (caller, grant, args) -> PolicyCheck.of(text(args, "document"))));
    }

    private GovernanceViews.Policies page(dev.stockade.api.kernel.access.Grant grant) {
        return PolicyController.page(policies.list(grant));
    }
}

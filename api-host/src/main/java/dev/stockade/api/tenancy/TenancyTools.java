package dev.stockade.api.tenancy;

import static dev.stockade.api.kernel.tools.ToolArgs.text;
import static dev.stockade.api.kernel.tools.ToolArgs.uuid;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.access.Action;
import dev.stockade.api.kernel.access.ToolFamily;
import dev.stockade.api.kernel.tools.Deleted;
import dev.stockade.api.kernel.tools.PlatformTool;
import dev.stockade.api.kernel.tools.Schema;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.DisplayNameValidator;
import jakarta.inject.Singleton;
import java.util.List;

/** Organizations, projects and project members as MCP tools, over the services of their REST routes. */
@Singleton
record TenancyTools(OrgService orgs, ProjectService projects) implements PlatformTool.Provider {
    @Override
    public List<PlatformTool> tools() {
        return List.of(
                new PlatformTool("list_orgs", "List the organizations you belong to.", ToolFamily.DAY_TO_DAY,
                        Action.ORG_LIST, Schema.object().required(),
                        (caller, grant, args) -> new Views.Orgs(orgs.list(caller).stream()
                                .map(Views.OrgView::of).toList())),
                new PlatformTool("create_org", "Create an organization; you become its admin.",
                        ToolFamily.ORG_LIFECYCLE, Action.ORG_CREATE,
                        Schema.object().string("name", "The organization's name").required("name"),
                        (caller, grant, args) -> Views.OrgView.of(orgs.create(caller, name(args)))),
                new PlatformTool("delete_org", "Delete an organization and everything in it.", ToolFamily.ORG_LIFECYCLE,
                        Action.ORG_DELETE, Schema.inOrg().required("orgId"),
                        (caller, grant, args) -> {
                            orgs.delete(caller, grant.orgId());
                            return new Deleted(grant.orgId());
                        }),
                new PlatformTool("list_projects", "List the projects of an organization that you can see.",
                        ToolFamily.DAY_TO_DAY, Action.PROJECT_LIST,
                        Schema.inOrg().required("orgId"),
                        (caller, grant, args) -> new Views.Projects(projects.list(caller, grant).stream()
                                .map(Views.ProjectView::of).toList())),
                new PlatformTool("get_project", "Read a project.", ToolFamily.DAY_TO_DAY, Action.PROJECT_READ,
                        Schema.inProject().required("projectId"),
                        (caller, grant, args) -> Views.ProjectView.of(projects.get(grant.projectId()))),
                new PlatformTool("create_project", "Create a project in an organization.", ToolFamily.ORG_LIFECYCLE,
                        Action.PROJECT_CREATE, Schema.inOrg()
                                .string("name", "The project's name").string("description", "What it is for")
                                .required("orgId", "name"),
                        (caller, grant, args) -> Views.ProjectView.of(projects.create(caller, grant.orgId(),
                                new Requests.CreateProject(name(args), description(args))))),
                new PlatformTool("list_project_members", "List the people and API tokens of a project with roles.",
                        ToolFamily.DAY_TO_DAY, Action.PROJECT_MEMBERS_READ,
                        Schema.inProject().required("projectId"),
                        (caller, grant, args) -> new Views.ProjectMembers(projects.members(grant.projectId()))),
                new PlatformTool("set_project_member", "Grant a person or an API token a role in a project (ADMIN or"
                        + " MEMBER), or remove it (NONE).", ToolFamily.ORG_LIFECYCLE, Action.PROJECT_MEMBERS_WRITE,
                        Schema.inProject()
                                .oneOf("principalType", "Who is granted", "user", "api-token")
                                .uuid("principalId", "The user's or API token's id")
                                .oneOf("role", "The role; NONE removes the member", "ADMIN", "MEMBER", "NONE")
                                .required("projectId", "principalType", "principalId", "role"),
                        (caller, grant, args) -> {
                            String type = text(args, "principalType");
                            String role = text(args, "role");
                            if (!List.of("user", "api-token").contains(type)) {
                                throw ApiProblem.invalid("/principalType", "enum", "`principalType` is user or api-token");
                            }
                            if (!List.of("ADMIN", "MEMBER", "NONE").contains(role)) {
                                throw ApiProblem.invalid("/role", "enum", "`role` is ADMIN, MEMBER or NONE");
                            }
                            if (role.equals("NONE")) {
                                projects.removeMember(caller, grant, type, uuid(args, "principalId"));
                            } else {
                                projects.setMember(caller, grant, type, uuid(args, "principalId"), role);
                            }
                            return new Views.MemberSet(grant.projectId(), type, uuid(args, "principalId"), role);
                        }));
    }

    private static String name(JsonNode args) {
        String name = text(args, "name");
        if (!DisplayNameValidator.valid(name)) {
            throw ApiProblem.invalid("/name", "display-name", "`name` must be 1 to 100 characters without control,"
                    + " line-separator or bidirectional formatting characters");
        }
        return name;
    }

    private static String description(JsonNode args) {
        String d = args.path("description").asText(null);
        if (d != null && d.length() > 2000) {
            throw ApiProblem.invalid("/description", "size", "`description` is at most 2000 characters");
        }
        return d;
    }
}

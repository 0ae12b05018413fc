package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade projects ...}: projects of an organization and their members. */
@Command(name = "projects", mixinStandardHelpOptions = true, description = "Projects and their members.",
        subcommands = ProjectsCommand.Members.class)
public final class ProjectsCommand extends Group {
    static final List<Output.Column> PROJECT = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("ORG", "orgId"), Output.Column.of("DESCRIPTION", "description"),
            Output.Column.time("CREATED", "createdAt"));

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The organization's projects you can see.")
    int list(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get("/v1/orgs/" + seg(org) + "/projects"), PROJECT));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a project (org admins).")
    int create(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
               @Parameters(paramLabel = "NAME") String name,
               @Option(names = "--description", paramLabel = "TEXT") String description, @Mixin ApiOptions api) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        if (description != null) {
            body.put("description", description);
        }
        return api.call((client, out) -> out.record(client.post("/v1/orgs/" + seg(org) + "/projects", body),
                PROJECT));
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One project.")
    int get(@Parameters(paramLabel = "PROJECT_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get("/v1/projects/" + seg(id)), PROJECT));
    }

    @Command(name = "update", mixinStandardHelpOptions = true, description = "Change a project's name or"
            + " description (project admins).")
    int update(@Parameters(paramLabel = "PROJECT_ID") String id,
               @Option(names = "--name", paramLabel = "NAME") String name,
               @Option(names = "--description", paramLabel = "TEXT") String description, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            if (name == null && description == null) {
                throw Failure.usage("give --name, --description or both");
            }
            Map<String, Object> body = new LinkedHashMap<>();
            if (name != null) {
                body.put("name", name);
            }
            if (description != null) {
                body.put("description", description);
            }
            out.record(client.patch("/v1/projects/" + seg(id), body), PROJECT);
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a project; its audit history"
            + " stays (org admins).")
    int delete(@Parameters(paramLabel = "PROJECT_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete("/v1/projects/" + seg(id));
            out.done("deleted project " + id);
        });
    }

    /** {@code stockade projects members ...}: users and API tokens granted a role in a project. */
    @Command(name = "members", mixinStandardHelpOptions = true, description = "Users and API tokens with a role in"
            + " a project.")
    static final class Members extends Group {
        static final List<Output.Column> MEMBER = List.of(Output.Column.of("TYPE", "principalType"),
                Output.Column.of("ID", "principalId"), Output.Column.of("NAME", "name"),
                Output.Column.of("ROLE", "role"));

        @Command(name = "list", mixinStandardHelpOptions = true, description = "The project's members.")
        int list(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                 @Mixin ApiOptions api) {
            return api.call((client, out) -> out.list(client.get(base(project)), MEMBER));
        }

        @Command(name = "set-user", mixinStandardHelpOptions = true, description = "Grant a user a role (org admins).")
        int setUser(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                    @Parameters(paramLabel = "USER_ID") String user,
                    @Option(names = "--role", required = true, description = "ADMIN or MEMBER.") Role role,
                    @Mixin ApiOptions api) {
            return set(api, project, "users", user, role);
        }

        @Command(name = "set-token", mixinStandardHelpOptions = true, description = "Grant an API token a role"
                + " (org admins).")
        int setToken(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                     @Parameters(paramLabel = "API_TOKEN_ID") String token,
                     @Option(names = "--role", required = true, description = "ADMIN or MEMBER.") Role role,
                     @Mixin ApiOptions api) {
            return set(api, project, "api-tokens", token, role);
        }

        @Command(name = "remove-user", mixinStandardHelpOptions = true, description = "Take a user's role away.")
        int removeUser(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                       @Parameters(paramLabel = "USER_ID") String user, @Mixin ApiOptions api) {
            return remove(api, project, "users", user);
        }

        @Command(name = "remove-token", mixinStandardHelpOptions = true, description = "Take an API token's role"
                + " away.")
        int removeToken(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                        @Parameters(paramLabel = "API_TOKEN_ID") String token, @Mixin ApiOptions api) {
            return remove(api, project, "api-tokens", token);
        }

        private static int set(ApiOptions api, String project, String kind, String id, Role role) {
            return api.call((client, out) -> {
                client.put(base(project) + "/" + kind + "/" + seg(id), Map.of("role", role.name()));
                out.done(noun(kind) + " " + id + " is now " + role + " of project " + project);
            });
        }

        private static int remove(ApiOptions api, String project, String kind, String id) {
            return api.call((client, out) -> {
                client.delete(base(project) + "/" + kind + "/" + seg(id));
                out.done("removed " + noun(kind) + " " + id + " from project " + project);
            });
        }

        private static String base(String project) {
            return "/v1/projects/" + seg(project) + "/members";
        }

        private static String noun(String kind) {
            return kind.equals("users") ? "user" : "API token";
        }
    }
}

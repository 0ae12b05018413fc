package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade orgs ...}: organizations ({@code /v1/orgs}) and their members. */
@Command(name = "orgs", mixinStandardHelpOptions = true, description = "Organizations and their members.",
        subcommands = OrgsCommand.Members.class)
public final class OrgsCommand extends Group {
    static final List<Output.Column> ORG = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("HALTED", "halted"), Output.Column.time("CREATED", "createdAt"));

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The organizations you belong to (all of"
            + " them for the installation owner).")
    int list(@Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get("/v1/orgs"), ORG));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create an organization; you become its"
            + " admin (installation owner, or a user allowed to).")
    int create(@Parameters(paramLabel = "NAME", description = "Display name, 1 to 100 characters.") String name,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.post("/v1/orgs", Map.of("name", name)), ORG));
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One organization.")
    int get(@Parameters(paramLabel = "ORG_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get("/v1/orgs/" + seg(id)), ORG));
    }

    @Command(name = "rename", mixinStandardHelpOptions = true, description = "Rename an organization (org admins).")
    int rename(@Parameters(index = "0", paramLabel = "ORG_ID") String id,
               @Parameters(index = "1", paramLabel = "NAME") String name, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.patch("/v1/orgs/" + seg(id), Map.of("name", name)), ORG));
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete an organization and erase"
            + " everything in it (org admins). Refused with 409 while it has projects.")
    int delete(@Parameters(paramLabel = "ORG_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete("/v1/orgs/" + seg(id));
            out.done("deleted organization " + id);
        });
    }

    /** {@code stockade orgs members ...}. */
    @Command(name = "members", mixinStandardHelpOptions = true, description = "Members of an organization.")
    static final class Members extends Group {
        static final List<Output.Column> MEMBER = List.of(Output.Column.of("USER_ID", "userId"),
                Output.Column.of("EMAIL", "email"), Output.Column.of("NAME", "name"), Output.Column.of("ROLE", "role"));

        @Command(name = "list", mixinStandardHelpOptions = true, description = "The organization's members.")
        int list(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
            return api.call((client, out) -> out.list(client.get("/v1/orgs/" + seg(org) + "/members"), MEMBER));
        }

        @Command(name = "set", mixinStandardHelpOptions = true, description = "Add a user or change their role"
                + " (org admins).")
        int set(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
                @Parameters(paramLabel = "USER_ID") String user,
                @Option(names = "--role", required = true, description = "ADMIN or MEMBER.") Role role,
                @Mixin ApiOptions api) {
            return api.call((client, out) -> {
                client.put("/v1/orgs/" + seg(org) + "/members/" + seg(user), Map.of("role", role.name()));
                out.done("user " + user + " is now " + role + " of organization " + org);
            });
        }

        @Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove a user (org admins).")
        int remove(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
                   @Parameters(paramLabel = "USER_ID") String user, @Mixin ApiOptions api) {
            return api.call((client, out) -> {
                client.delete("/v1/orgs/" + seg(org) + "/members/" + seg(user));
                out.done("removed user " + user + " from organization " + org);
            });
        }
    }
}

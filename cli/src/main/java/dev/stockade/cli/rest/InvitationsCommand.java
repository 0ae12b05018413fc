package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade invitations ...}: inviting people into an organization by email, and accepting. */
@Command(name = "invitations", mixinStandardHelpOptions = true, description = "Invitations into an organization"
        + " (org admins invite; the invited user, signed in through the identity provider, accepts).")
public final class InvitationsCommand extends Group {
    static final List<Output.Column> INVITATION = List.of(Output.Column.of("ID", "id"),
            Output.Column.of("ORG", "orgId"), Output.Column.of("EMAIL", "email"), Output.Column.of("ROLE", "role"),
            Output.Column.time("CREATED", "createdAt"), Output.Column.time("ACCEPTED", "acceptedAt"));

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The organization's invitations.")
    int list(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(path(org)), INVITATION));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Invite an email address with a role.")
    int create(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
               @Parameters(paramLabel = "EMAIL") String email,
               @Option(names = "--role", required = true, description = "ADMIN or MEMBER.") Role role,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.post(path(org),
                Map.of("email", email, "role", role.name())), INVITATION));
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Withdraw an invitation.")
    int delete(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
               @Parameters(paramLabel = "INVITATION_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete(path(org) + "/" + seg(id));
            out.done("deleted invitation " + id);
        });
    }

    @Command(name = "mine", mixinStandardHelpOptions = true, description = "Invitations to your email address"
            + " (users signed in through the identity provider).")
    int mine(@Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get("/v1/invitations"), INVITATION));
    }

    @Command(name = "accept", mixinStandardHelpOptions = true, description = "Accept an invitation to your email"
            + " address: you become a member with its role.")
    int accept(@Parameters(paramLabel = "INVITATION_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.post("/v1/invitations/" + seg(id) + "/accept", null),
                INVITATION));
    }

    private static String path(String org) {
        return "/v1/orgs/" + seg(org) + "/invitations";
    }
}

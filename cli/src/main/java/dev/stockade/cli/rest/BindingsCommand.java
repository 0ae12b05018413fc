package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade policy-bindings ...}: policies bound to people and API tokens, effective policies and drift. */
@Command(name = "policy-bindings", mixinStandardHelpOptions = true, description = "Bind policies to people and API"
        + " tokens; show an identity's effective policy and the organization's drift.")
public final class BindingsCommand extends Group {
    static final List<Output.Column> BINDING = List.of(Output.Column.of("ID", "id"), Output.Column.of("SCOPE", "scope"),
            Output.Column.of("POLICY", "policyName"), Output.Column.of("USER", "userId"),
            Output.Column.of("API-TOKEN", "apiTokenId"), Output.Column.time("CREATED", "createdAt"));

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Bindings of the org or project.")
    int list(@Option(names = "--org", paramLabel = "ORG_ID") String org,
             @Option(names = "--project", paramLabel = "PROJECT_ID") String project, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(GovernanceFiles.scope(org, project)
                + "/policy-bindings"), BINDING));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Bind a policy to a user or an API"
            + " token (org level: org policies; project level: the project's or the org's policies).")
    int create(@Option(names = "--org", paramLabel = "ORG_ID") String org,
               @Option(names = "--project", paramLabel = "PROJECT_ID") String project,
               @Option(names = "--policy", paramLabel = "POLICY_ID", required = true) String policy,
               @Option(names = "--user", paramLabel = "USER_ID") String user,
               @Option(names = "--api-token", paramLabel = "API_TOKEN_ID") String apiToken, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("policyId", policy);
            if (user != null) {
                body.put("userId", user);
            }
            if (apiToken != null) {
                body.put("apiTokenId", apiToken);
            }
            out.record(client.post(GovernanceFiles.scope(org, project) + "/policy-bindings", body), BINDING);
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Remove a binding.")
    int delete(@Option(names = "--org", paramLabel = "ORG_ID") String org,
               @Option(names = "--project", paramLabel = "PROJECT_ID") String project,
               @Parameters(paramLabel = "BINDING_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete(GovernanceFiles.scope(org, project) + "/policy-bindings/" + seg(id));
            out.done("deleted binding " + id);
        });
    }

    @Command(name = "effective", mixinStandardHelpOptions = true, description = "The effective policy of a user or"
            + " an API token in a project (yours without --user/--api-token).")
    int effective(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                  @Option(names = "--user", paramLabel = "USER_ID") String user,
                  @Option(names = "--api-token", paramLabel = "API_TOKEN_ID") String apiToken,
                  @Mixin ApiOptions api) {
        String query = user != null ? "?userId=" + seg(user) : apiToken != null ? "?apiTokenId=" + seg(apiToken) : "";
        return api.call((client, out) -> out.json(client.get("/v1/projects/" + seg(project)
                + "/policy-bindings/effective" + query)));
    }

    @Command(name = "drift", mixinStandardHelpOptions = true, description = "Where a project asked for more than"
            + " the org ceiling gives (bindings and sandboxes).")
    int drift(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.json(client.get("/v1/orgs/" + seg(org) + "/policy-bindings/drift")));
    }
}

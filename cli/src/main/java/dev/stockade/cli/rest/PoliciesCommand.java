package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stockade policies ...}: org and project policies stored on the platform. Files are sent as written, so the
 * platform's problems carry lines and columns of the file. ({@code stockade policy ...} works on local files.)
 */
@Command(name = "policies", mixinStandardHelpOptions = true, description = "Org and project policies on the"
        + " platform (create and update from YAML or JSON files).")
public final class PoliciesCommand extends Group {
    static final List<Output.Column> POLICY = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("SCOPE", "scope"), Output.Column.time("UPDATED", "updatedAt"));

    @Option(names = "--org", paramLabel = "ORG_ID", description = "An org policy (also a ceiling).", scope =
            picocli.CommandLine.ScopeType.INHERIT)
    String org;

    @Option(names = "--project", paramLabel = "PROJECT_ID", description = "A project policy.", scope =
            picocli.CommandLine.ScopeType.INHERIT)
    String project;

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The policies of the org or project.")
    int list(@Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(base()), POLICY));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a policy from a file.")
    int create(@Option(names = {"-f", "--file"}, paramLabel = "FILE", required = true, description = "YAML or JSON;"
            + " - reads standard input.") String file, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            String text = GovernanceFiles.read(file, api.in());
            out.record(client.sendText("POST", base(), GovernanceFiles.contentType(file, text), text), POLICY);
        });
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One policy with its document.")
    int get(@Parameters(paramLabel = "POLICY_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.json(client.get(base() + "/" + seg(id))));
    }

    @Command(name = "update", mixinStandardHelpOptions = true, description = "Update a policy: each top-level key"
            + " of the file replaces the stored one; name is required.")
    int update(@Parameters(paramLabel = "POLICY_ID") String id,
               @Option(names = {"-f", "--file"}, paramLabel = "FILE", required = true) String file,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            String text = GovernanceFiles.read(file, api.in());
            out.record(client.sendText("PATCH", base() + "/" + seg(id), GovernanceFiles.contentType(file, text),
                    text), POLICY);
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a policy.")
    int delete(@Parameters(paramLabel = "POLICY_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete(base() + "/" + seg(id));
            out.done("deleted policy " + id);
        });
    }

    private String base() {
        return GovernanceFiles.scope(org, project) + "/policies";
    }
}

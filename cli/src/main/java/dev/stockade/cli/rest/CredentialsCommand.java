package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stockade credentials ...}: egress credentials of a project. The secret is read from a file or standard
 * input, never from the command line (where shell history and process listings would keep it).
 */
@Command(name = "credentials", mixinStandardHelpOptions = true, description = "Egress credentials of a project"
        + " (secrets are write-only).")
public final class CredentialsCommand extends Group {
    static final List<Output.Column> CREDENTIAL = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("DOMAINS", "domains"), Output.Column.of("HEADER", "headerFormat"),
            Output.Column.of("SANDBOX", "sandboxId"), Output.Column.time("UPDATED", "updatedAt"));

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The project's credentials.")
    int list(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
             @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(base(project)), CREDENTIAL));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a credential.")
    int create(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
               @Parameters(paramLabel = "NAME") String name,
               @Option(names = "--secret-file", paramLabel = "FILE", required = true, description = "The secret"
                       + " (one trailing newline is dropped); - reads standard input.") String secretFile,
               @Option(names = "--domain", paramLabel = "PATTERN", required = true, description = "A domain the"
                       + " secret may go to, optionally PATTERN:PORT (443 when none); repeat.") List<String> domains,
               @Option(names = "--header", paramLabel = "FORMAT", description = "e.g. 'Authorization: Bearer"
                       + " {secret}'.") String header, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", name);
            body.put("secret", secret(secretFile, api));
            body.put("domains", domains);
            if (header != null) {
                body.put("headerFormat", header);
            }
            out.record(client.post(base(project), body), CREDENTIAL);
        });
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One credential (never its secret).")
    int get(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
            @Parameters(paramLabel = "CREDENTIAL_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get(base(project) + "/" + seg(id)), CREDENTIAL));
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true, description = "Replace a credential's secret.")
    int rotate(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
               @Parameters(paramLabel = "CREDENTIAL_ID") String id,
               @Option(names = "--secret-file", paramLabel = "FILE", required = true) String secretFile,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.patch(base(project) + "/" + seg(id),
                Map.of("secret", secret(secretFile, api))), CREDENTIAL));
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a credential.")
    int delete(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
               @Parameters(paramLabel = "CREDENTIAL_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete(base(project) + "/" + seg(id));
            out.done("deleted credential " + id);
        });
    }

    private static String secret(String file, ApiOptions api) {
        return GovernanceFiles.secret(file, api.in());
    }

    private static String base(String project) {
        return "/v1/projects/" + seg(project) + "/credentials";
    }
}

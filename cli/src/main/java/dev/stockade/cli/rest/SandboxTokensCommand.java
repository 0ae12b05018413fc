package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade sandbox-tokens ...}: tokens pinned to one project, for its sandboxes. */
@Command(name = "sandbox-tokens", mixinStandardHelpOptions = true, description = "Sandbox tokens of a project"
        + " (pinned to it; project admins manage them).")
public final class SandboxTokensCommand extends Group {
    @Command(name = "list", mixinStandardHelpOptions = true, description = "The project's sandbox tokens.")
    int list(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
             @Mixin ApiOptions api) {
        return Tokens.list(api, "/v1/projects/" + seg(project) + "/sandbox-tokens");
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a sandbox token; its secret"
            + " is printed once.")
    int create(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
               @Parameters(paramLabel = "NAME") String name,
               @Option(names = "--expires", paramLabel = "WHEN", description = "Expiry: an ISO 8601 instant, a date"
                       + " (midnight UTC) or a duration from now such as 30d, 12h.") String expires,
               @Mixin ApiOptions api) {
        return Tokens.create(api, "/v1/projects/" + seg(project) + "/sandbox-tokens", name, expires);
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a sandbox token.")
    int revoke(@Parameters(paramLabel = "TOKEN_ID") String id, @Mixin ApiOptions api) {
        return Tokens.revoke(api, "/v1/sandbox-tokens/" + seg(id), id, "sandbox token");
    }
}

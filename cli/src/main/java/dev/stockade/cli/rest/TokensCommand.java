package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade tokens ...}: an organization's API tokens (org admins). */
@Command(name = "tokens", mixinStandardHelpOptions = true, description = "API tokens of an organization"
        + " (for scripts and CI; org admins manage them).")
public final class TokensCommand extends Group {
    @Command(name = "list", mixinStandardHelpOptions = true, description = "The organization's API tokens"
            + " (never their secrets).")
    int list(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
        return Tokens.list(api, "/v1/orgs/" + seg(org) + "/api-tokens");
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create an API token; its secret is"
            + " printed once.")
    int create(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
               @Parameters(paramLabel = "NAME") String name,
               @Option(names = "--expires", paramLabel = "WHEN", description = "Expiry: an ISO 8601 instant, a date"
                       + " (midnight UTC) or a duration from now such as 30d, 12h.") String expires,
               @Mixin ApiOptions api) {
        return Tokens.create(api, "/v1/orgs/" + seg(org) + "/api-tokens", name, expires);
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One API token (never its secret).")
    int get(@Parameters(paramLabel = "TOKEN_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get("/v1/api-tokens/" + seg(id)), Tokens.TOKEN));
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke an API token; requests with"
            + " it are refused within the platform's token cache time.")
    int revoke(@Parameters(paramLabel = "TOKEN_ID") String id, @Mixin ApiOptions api) {
        return Tokens.revoke(api, "/v1/api-tokens/" + seg(id), id, "API token");
    }
}

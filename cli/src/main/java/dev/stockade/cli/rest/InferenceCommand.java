package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code stockade inference providers|keys ...}: the backends the deployment serves, an organization's view of them,
 * and its own inference keys. A key is read from a file or standard input ({@code -}), never from the command line,
 * and is never shown.
 */
@Command(name = "inference", mixinStandardHelpOptions = true, description = "Managed inference: the backends served"
        + " and an organization's own keys (docs/inference.md).", subcommands = InferenceCommand.Keys.class)
public final class InferenceCommand extends Group {
    static final List<Output.Column> PROVIDER = List.of(Output.Column.of("PROVIDER", "provider"),
            Output.Column.of("SERVED", "served"), Output.Column.of("DEPLOYMENT_KEY", "deploymentKey"));
    static final List<Output.Column> ORG_PROVIDER = List.of(Output.Column.of("PROVIDER", "provider"),
            Output.Column.of("AVAILABLE", "available"), Output.Column.of("KEY", "keySource"));
    static final List<Output.Column> KEY = List.of(Output.Column.of("SOURCE", "source"),
            Output.Column.time("UPDATED", "updatedAt"), Output.Column.of("BY", "updatedBy"));

    @Command(name = "providers", mixinStandardHelpOptions = true, description = "The backends the deployment serves"
            + " and its default; with --org, which the organization can use and whose key each call sends.")
    int providers(@Option(names = "--org", paramLabel = "ORG_ID") String org, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            var answer = client.get(org == null ? "/v1/inference/providers"
                    : "/v1/orgs/" + seg(org) + "/inference/providers");
            if (out.format() == Output.Format.json) {
                out.json(answer);
                return;
            }
            out.note("default provider: " + answer.path("defaultProvider").asText("none"));
            List<com.fasterxml.jackson.databind.JsonNode> items = new java.util.ArrayList<>();
            answer.path("providers").forEach(items::add);
            out.table(items, org == null ? PROVIDER : ORG_PROVIDER, true);
        });
    }

    /** {@code stockade inference keys list|set|delete --org ID}: a signed-in org administrator only. */
    @Command(name = "keys", mixinStandardHelpOptions = true, description = "An organization's own inference keys"
            + " (a signed-in org administrator only; API and sandbox tokens are refused).")
    public static final class Keys extends Group {
        @Command(name = "list", mixinStandardHelpOptions = true, description = "Which backends have a key (never"
                + " the key).")
        int list(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
            return api.call((client, out) -> out.list(client.get(path(org)), KEY));
        }

        @Command(name = "set", mixinStandardHelpOptions = true, description = "Store or replace the key for one"
                + " backend.")
        int set(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
                @Option(names = "--source", paramLabel = "PROVIDER", required = true, description = "bedrock, azure,"
                        + " bedrock-mantle, openai, openrouter or litellm") String source,
                @Option(names = "--key-file", paramLabel = "FILE", required = true, description = "The key: a file,"
                        + " or - for standard input (a trailing newline is dropped)") String keyFile,
                @Mixin ApiOptions api) {
            return api.call((client, out) -> out.record(client.put(path(org) + "/" + seg(source),
                    Map.of("key", key(keyFile, api))), KEY));
        }

        @Command(name = "delete", mixinStandardHelpOptions = true, description = "Remove the key for one backend.")
        int delete(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org,
                   @Option(names = "--source", paramLabel = "PROVIDER", required = true) String source,
                   @Mixin ApiOptions api) {
            return api.call((client, out) -> {
                client.delete(path(org) + "/" + seg(source));
                out.done("deleted the " + source + " key");
            });
        }

        private static String key(String file, ApiOptions api) {
            return GovernanceFiles.secret(file, api.in());
        }

        private static String path(String org) {
            return "/v1/orgs/" + seg(org) + "/inference/keys";
        }
    }
}

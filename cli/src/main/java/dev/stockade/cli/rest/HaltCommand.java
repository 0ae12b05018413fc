package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stockade halt status|on|off --org ID}: the organization-wide emergency stop. */
@Command(name = "halt", mixinStandardHelpOptions = true, description = "The organization-wide emergency halt of"
        + " agent work: read by members, switched by org admins.")
public final class HaltCommand extends Group {
    static final List<Output.Column> HALT = List.of(Output.Column.of("HALTED", "halted"),
            Output.Column.time("SINCE", "haltedAt"), Output.Column.of("BY", "haltedBy"));

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Whether the organization is halted.")
    int status(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get(path(org)), HALT));
    }

    @Command(name = "on", mixinStandardHelpOptions = true, description = "Halt the organization (audited).")
    int on(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.post(path(org), null), HALT));
    }

    @Command(name = "off", mixinStandardHelpOptions = true, description = "Lift the halt (audited).")
    int off(@Option(names = "--org", paramLabel = "ORG_ID", required = true) String org, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.delete(path(org)), HALT));
    }

    private static String path(String org) {
        return "/v1/orgs/" + seg(org) + "/halt";
    }
}

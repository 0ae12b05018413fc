package dev.stockade.cli.rest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code stockade installation status}: enrollment and connection of the installation (no sign-in needed). */
@Command(name = "installation", mixinStandardHelpOptions = true, description = "The installation: enrollment with"
        + " the hub, connection, warnings.")
public final class InstallationCommand extends Group {
    static final List<Output.Column> STATUS = List.of(Output.Column.of("ENROLLED", "enrolled"),
            Output.Column.of("CONNECTION", "connection"), Output.Column.of("REVOKED", "revoked"),
            Output.Column.of("HUB", "hubUrl"), Output.Column.of("DEV_HUB", "devHub"),
            Output.Column.of("FLEET", "fleetId"), Output.Column.of("VERSION", "version"),
            new Output.Column("WARNINGS", n -> n.path("warnings").isEmpty() ? "-"
                    : String.join("; ", texts(n.path("warnings")))));

    @Command(name = "status", mixinStandardHelpOptions = true, description = "GET /v1/installation.")
    int status(@Mixin ApiOptions api) {
        return api.call(false, (client, out) -> out.record(client.get("/v1/installation"), STATUS));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}

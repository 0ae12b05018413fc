package dev.stockade.cli.rest;

import dev.stockade.policy.text.Quoted;
import static dev.stockade.cli.rest.ApiClient.seg;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade connectors ...}: upstream MCP servers and HTTP APIs a project's policies can grant tools of. */
@Command(name = "connectors", aliases = "connector", mixinStandardHelpOptions = true, description = "Connectors of a"
        + " project: upstream MCP servers and HTTP APIs (OpenAPI 3). Their tools reach callers only where a policy"
        + " grants them by name (connectors[].allowedTools).")
public final class ConnectorsCommand extends Group {
    static final List<Output.Column> CONNECTOR = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("KIND", "kind"), Output.Column.of("STATUS", "status"), Output.Column.of("URL", "url"),
            new Output.Column("TOOLS", n -> Integer.toString(n.path("tools").size())),
            Output.Column.of("LAST ERROR", "lastError"), Output.Column.time("SYNCED", "syncedAt"));
    static final List<Output.Column> SPEC = List.of(Output.Column.of("ID", "id"), Output.Column.of("STATUS", "status"),
            new Output.Column("TOOLS", n -> Integer.toString(n.path("tools").size())),
            Output.Column.time("CREATED", "createdAt"));
    static final List<Output.Column> ENTRY = List.of(Output.Column.of("NAME", "name"),
            Output.Column.of("VISIBLE", "visible"), Output.Column.of("DESCRIPTION", "description"));
    static final List<Output.Column> CREDENTIAL = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("KIND", "kind"), Output.Column.of("HEADER", "headerName"),
            Output.Column.of("APPLICATION", "application"), Output.Column.time("CONNECTED", "connectedAt"));

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The project's connectors.")
    int list(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
             @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(servers(project)), CONNECTOR));
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One connector with its tools.")
    int get(@Parameters(paramLabel = "SERVER_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get("/v1/mcp-servers/" + seg(id)), CONNECTOR));
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Register an MCP server (streamable HTTP)"
            + " and discover its tools; a failed discovery is recorded (STATUS error), not refused.")
    int add(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
            @Parameters(index = "0", paramLabel = "NAME", description = "A slug; it prefixes the tool names") String name,
            @Parameters(index = "1", paramLabel = "URL", description = "The server's MCP endpoint") String url,
            @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.post(servers(project), Map.of("name", name, "url", url)),
                CONNECTOR));
    }

    /** Where an OpenAPI document comes from. */
    static final class Source {
        @Option(names = "--document", paramLabel = "FILE", description = "The OpenAPI 3 document (JSON or YAML)")
        Path file;
        @Option(names = "--document-url", paramLabel = "URL", description = "Where the platform reads it (and"
                + " re-reads it on sync)")
        String url;
    }

    @Command(name = "add-http", mixinStandardHelpOptions = true, description = "Register an HTTP API from its"
            + " OpenAPI 3 document: each operation becomes a tool.")
    int addHttp(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                @Parameters(paramLabel = "NAME") String name,
                @ArgGroup(multiplicity = "1") Source source,
                @Option(names = "--base-url", paramLabel = "URL", description = "The API's base, when not the"
                        + " document's first server") String baseUrl,
                @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", name);
            if (source.file != null) {
                body.put("document", read(source.file));
            } else {
                body.put("documentUrl", source.url);
            }
            if (baseUrl != null) {
                body.put("baseUrl", baseUrl);
            }
            out.record(client.post(servers(project) + "/http", body), CONNECTOR);
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a connector.")
    int delete(@Parameters(paramLabel = "SERVER_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete("/v1/mcp-servers/" + seg(id));
            out.done("deleted connector " + id);
        });
    }

    @Command(name = "sync", mixinStandardHelpOptions = true, description = "Re-discover: a changed tool list becomes"
            + " a pending spec (see diff, promote).")
    int sync(@Parameters(paramLabel = "SERVER_ID") String id,
             @Option(names = "--document", paramLabel = "FILE", description = "The new document of an HTTP connector"
                     + " registered from a file") Path file,
             @Mixin ApiOptions api) {
        return api.call((client, out) -> out.json(client.post("/v1/mcp-servers/" + seg(id) + "/sync",
                file == null ? Map.of() : Map.of("document", read(file)))));
    }

    @Command(name = "pending", mixinStandardHelpOptions = true, description = "Pending specs of a connector.")
    int pending(@Parameters(paramLabel = "SERVER_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get("/v1/mcp-servers/" + seg(id) + "/specs/pending"), SPEC));
    }

    @Command(name = "diff", mixinStandardHelpOptions = true, description = "What promoting a spec would change.")
    int diff(@Parameters(index = "0", paramLabel = "SERVER_ID") String id,
             @Parameters(index = "1", paramLabel = "SPEC_ID") String spec, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            JsonNode d = client.get("/v1/mcp-servers/" + seg(id) + "/specs/" + seg(spec) + "/diff");
            if (out.format() == Output.Format.json) {
                out.json(d);
                return;
            }
            d.path("added").forEach(n -> out.note("+ " + n.asText()));
            d.path("removed").forEach(n -> out.note("- " + n.asText()));
            d.path("changed").forEach(n -> out.note("~ " + n.asText()));
        });
    }

    @Command(name = "promote", mixinStandardHelpOptions = true, description = "Make a pending spec active; new tools"
            + " still need a policy that names them.")
    int promote(@Parameters(index = "0", paramLabel = "SERVER_ID") String id,
                @Parameters(index = "1", paramLabel = "SPEC_ID") String spec, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.post("/v1/mcp-servers/" + seg(id) + "/specs/" + seg(spec)
                + "/promote", Map.of()), CONNECTOR));
    }

    @Command(name = "entries", mixinStandardHelpOptions = true, description = "The connector's tool entries.")
    int entries(@Parameters(paramLabel = "SERVER_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get("/v1/mcp-servers/" + seg(id) + "/entries"), ENTRY));
    }

    @Command(name = "visibility", mixinStandardHelpOptions = true, description = "Show or hide a tool entry; a"
            + " hidden entry is never exposed, whatever policies grant.")
    int visibility(@Parameters(index = "0", paramLabel = "SERVER_ID") String id,
                   @Parameters(index = "1", paramLabel = "ENTRY") String entry,
                   @Parameters(index = "2", paramLabel = "visible|hidden") String state, @Mixin ApiOptions api) {
        if (!state.equals("visible") && !state.equals("hidden")) {
            throw Failure.usage("the state is `visible` or `hidden`, not " + Quoted.input(state, Text::safe));
        }
        return api.call((client, out) -> {
            client.put("/v1/mcp-servers/" + seg(id) + "/entries/" + seg(entry) + "/visibility",
                    Map.of("visible", state.equals("visible")));
            out.done(entry + " is " + state);
        });
    }

    @Command(name = "credentials", mixinStandardHelpOptions = true, description = "The connector's credentials"
            + " (never their secrets).")
    int credentials(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                    @Parameters(paramLabel = "SERVER_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get(servers(project) + "/" + seg(id) + "/credentials"),
                CREDENTIAL));
    }

    @Command(name = "add-credential", mixinStandardHelpOptions = true, description = "A static secret (read from a"
            + " file, never an argument) or an OAuth credential of an operator-configured application.")
    int addCredential(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
                      @Parameters(index = "0", paramLabel = "SERVER_ID") String id,
                      @Parameters(index = "1", paramLabel = "NAME") String name,
                      @Option(names = "--secret-file", paramLabel = "FILE") Path secretFile,
                      @Option(names = "--header-format", paramLabel = "FORMAT", description = "Default:"
                              + " 'Authorization: Bearer {secret}'") String format,
                      @Option(names = "--application", paramLabel = "APP") String application,
                      @Mixin ApiOptions api) {
        if ((secretFile == null) == (application == null)) {
            throw Failure.usage("give --secret-file (a static secret) or --application (OAuth)");
        }
        return api.call((client, out) -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", name);
            if (secretFile != null) {
                body.put("secret", read(secretFile).strip());
                if (format != null) {
                    body.put("headerFormat", format);
                }
            } else {
                body.put("application", application);
            }
            JsonNode created = client.post(servers(project) + "/" + seg(id) + "/credentials", body);
            out.record(created, CREDENTIAL);
            if (application != null) {
                JsonNode start = client.post(servers(project) + "/" + seg(id) + "/credentials/"
                        + seg(created.path("id").asText()) + "/oauth/start", Map.of());
                out.note("open this address to connect it: " + start.path("authorizationUrl").asText());
            }
        });
    }

    private static String servers(String project) {
        return "/v1/projects/" + seg(project) + "/mcp-servers";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw Failure.usage("cannot read " + Text.shown(file) + ": " + Text.shown(e.getMessage()));
        }
    }
}

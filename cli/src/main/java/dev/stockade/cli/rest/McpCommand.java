package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade mcp ...}: the platform's MCP endpoint as the token sees it (what an agent would list and call). */
@Command(name = "mcp", mixinStandardHelpOptions = true, description = "The MCP endpoint as this token sees it:"
        + " platform tools and the connector tools its policies grant (/mcp, or /projects/ID/mcp with --project).")
public final class McpCommand extends Group {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final List<Output.Column> TOOL = List.of(Output.Column.of("NAME", "name"),
            Output.Column.of("DESCRIPTION", "description"));

    @Command(name = "tools", mixinStandardHelpOptions = true, description = "The tools this token may call.")
    int tools(@Option(names = "--project", paramLabel = "PROJECT_ID", description = "The project endpoint") String p,
              @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            Session s = Session.open(client, path(p));
            JsonNode tools = s.request("tools/list", Map.of()).path("tools");
            s.close();
            out.list(JSON.createObjectNode().set("items", tools), TOOL);
        });
    }

    @Command(name = "call", mixinStandardHelpOptions = true, description = "Call a tool; prints its text content"
            + " (--output json: the whole result). Exit status 1 when the tool reports an error.")
    int call(@Parameters(index = "0", paramLabel = "TOOL") String tool,
             @Parameters(index = "1", arity = "0..1", paramLabel = "ARGUMENTS_JSON", description = "A JSON object")
             String arguments,
             @Option(names = "--project", paramLabel = "PROJECT_ID", description = "The project endpoint") String p,
             @Mixin ApiOptions api) {
        int[] status = {0};
        int code = api.call((client, out) -> {
            JsonNode args;
            try {
                args = JSON.readTree(arguments == null ? "{}" : arguments);
            } catch (IOException e) {
                throw Failure.usage("ARGUMENTS_JSON is not JSON");
            }
            if (!args.isObject()) {
                throw Failure.usage("ARGUMENTS_JSON must be a JSON object");
            }
            Session s = Session.open(client, path(p));
            JsonNode result = s.request("tools/call", Map.of("name", tool, "arguments", args));
            s.close();
            status[0] = result.path("isError").asBoolean() ? 1 : 0;
            if (out.format() == Output.Format.json) {
                out.json(result);
            } else {
                result.path("content").forEach(c -> out.note(c.path("text").asText(c.toString())));
            }
        });
        return code != 0 ? code : status[0];
    }

    private static String path(String project) {
        return project == null ? "/mcp" : "/projects/" + seg(project) + "/mcp";
    }

    /** One MCP session over the API client: initialize, requests, delete. */
    private record Session(ApiClient client, String path, String id) {
        static Session open(ApiClient client, String path) {
            ApiClient.Rpc init = client.rpc(path, null, Map.of("jsonrpc", "2.0", "id", 0, "method", "initialize",
                    "params", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
                            "clientInfo", Map.of("name", "stockade-cli", "version", "1"))));
            if (init.session() == null) {
                throw Failure.unexpected("the MCP endpoint opened no session; is this the Stockade platform?");
            }
            client.rpc(path, init.session(), Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
            return new Session(client, path, init.session());
        }

        JsonNode request(String method, Object params) {
            JsonNode answer = client.rpc(path, id, Map.of("jsonrpc", "2.0", "id", 1, "method", method,
                    "params", params)).body();
            if (answer.has("error")) {
                throw Failure.usage(Text.safe(answer.path("error").path("message").asText()));
            }
            return answer.path("result");
        }

        void close() {
            client.deleteSession(path, id);
        }
    }
}

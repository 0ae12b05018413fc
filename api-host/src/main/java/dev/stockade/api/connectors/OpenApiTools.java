package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * An OpenAPI 3 document as connector tools: each operation becomes a tool named by its {@code operationId} (or its
 * method and path), whose input schema has one property per path, query and header parameter and {@code body} for a
 * JSON request body ($refs resolved), and whose {@code operation} says where each argument goes. External $refs are
 * not fetched (the document is read as given, never dialing out from the parser).
 */
final class OpenApiTools {
    private static final ObjectMapper YAML = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
    /** Headers an HTTP connector never lets a tool argument set. */
    private static final Set<String> RESERVED_HEADERS = Set.of("authorization", "cookie", "host", "content-length",
            "transfer-encoding", "connection", "proxy-authorization", "te", "upgrade");

    /** The document's tools and the base URL of its first server ({@code null} when it names none). */
    record Read(List<UpstreamClient.Tool> tools, String server) {
    }

    private OpenApiTools() {
    }

    static Read read(String document, int maxTools) throws UpstreamClient.UpstreamException {
        refuseExternalRefs(document);
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setResolveFully(true);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(document, null, options);
        OpenAPI api = parsed.getOpenAPI();
        if (api == null || api.getPaths() == null) {
            List<String> messages = parsed.getMessages() == null ? List.of() : parsed.getMessages();
            throw new UpstreamClient.UpstreamException("the document is not an OpenAPI 3 document"
                    + (messages.isEmpty() ? "" : ": " + UpstreamClient.clip(String.join("; ", messages))));
        }
        List<UpstreamClient.Tool> tools = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Map.Entry<String, PathItem> path : api.getPaths().entrySet()) {
            for (Map.Entry<PathItem.HttpMethod, Operation> op : path.getValue().readOperationsMap().entrySet()) {
                tools.add(tool(path.getKey(), path.getValue(), op.getKey(), op.getValue(), names));
                if (tools.size() > maxTools) {
                    throw new UpstreamClient.UpstreamException("the document has more than " + maxTools
                            + " operations");
                }
            }
        }
        String server = api.getServers() == null || api.getServers().isEmpty() ? null : api.getServers().get(0).getUrl();
        return new Read(tools, server);
    }

    /** The parser would fetch a $ref outside the document, unguarded: such a document is refused before parsing. */
    private static void refuseExternalRefs(String document) throws UpstreamClient.UpstreamException {
        JsonNode tree;
        try {
            tree = YAML.readTree(document); // YAML is a superset of JSON: either form reads
        } catch (java.io.IOException e) {
            throw new UpstreamClient.UpstreamException("the document is neither JSON nor YAML");
        }
        List<JsonNode> refs = tree == null ? List.of() : tree.findValues("$ref");
        for (JsonNode ref : refs) {
            if (!ref.isTextual() || !ref.asText().startsWith("#/")) {
                throw new UpstreamClient.UpstreamException("the document refers outside itself (`$ref: "
                        + UpstreamClient.clip(ref.asText()) + "`); inline external schemas first");
            }
        }
    }

    private static UpstreamClient.Tool tool(String path, PathItem item, PathItem.HttpMethod method, Operation op,
                                            Set<String> names) throws UpstreamClient.UpstreamException {
        String base = op.getOperationId() != null && !op.getOperationId().isBlank() ? op.getOperationId()
                : method.name().toLowerCase(Locale.ROOT) + path.replaceAll("[{}]", "").replace('/', '_');
        String name = base.replaceAll("[^A-Za-z0-9_.-]", "_");
        for (int i = 2; !names.add(name); i++) {
            name = base.replaceAll("[^A-Za-z0-9_.-]", "_") + "_" + i;
        }
        ObjectNode schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = JsonNodeFactory.instance.arrayNode();
        ObjectNode operation = JsonNodeFactory.instance.objectNode().put("method", method.name()).put("path", path);
        ArrayNode params = operation.putArray("parameters");
        List<Parameter> all = new ArrayList<>(item.getParameters() == null ? List.of() : item.getParameters());
        if (op.getParameters() != null) {
            all.addAll(op.getParameters());
        }
        for (Parameter p : all) {
            String in = p.getIn();
            if (!List.of("path", "query", "header").contains(in) || p.getName() == null
                    || in.equals("header") && RESERVED_HEADERS.contains(p.getName().toLowerCase(Locale.ROOT))) {
                continue; // cookies and reserved headers are the connector's, never a tool argument's
            }
            JsonNode ps = p.getSchema() == null ? JsonNodeFactory.instance.objectNode().put("type", "string")
                    : Json.mapper().valueToTree(p.getSchema());
            ObjectNode prop = properties.putObject(p.getName());
            prop.setAll((ObjectNode) ps);
            if (p.getDescription() != null) {
                prop.put("description", p.getDescription());
            }
            params.addObject().put("name", p.getName()).put("in", in);
            if ("path".equals(in) || Boolean.TRUE.equals(p.getRequired())) {
                required.add(p.getName());
            }
        }
        if (op.getRequestBody() != null && op.getRequestBody().getContent() != null) {
            MediaType json = op.getRequestBody().getContent().get("application/json");
            if (json == null) {
                throw new UpstreamClient.UpstreamException("operation `" + name + "` takes a body that is not"
                        + " application/json; only JSON bodies are supported");
            }
            ObjectNode body = properties.putObject("body");
            if (json.getSchema() != null) {
                body.setAll((ObjectNode) Json.mapper().valueToTree(json.getSchema()));
            }
            body.put("description", "The request body (JSON)");
            operation.put("body", true);
            if (Boolean.TRUE.equals(op.getRequestBody().getRequired())) {
                required.add("body");
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        String description = op.getSummary() != null ? op.getSummary()
                : op.getDescription() != null ? op.getDescription() : method.name() + " " + path;
        return new UpstreamClient.Tool(name, description, schema, operation);
    }
}

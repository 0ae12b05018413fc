package dev.stockade.runtime.agent;

import dev.stockade.runtime.provider.ToolSpec;
import java.util.List;

/** read_document (always) and write_document (frozen while locked; never the Agent Guide). */
final class DocumentTools {
    private DocumentTools() {
    }

    static List<Tool> all(Documents docs) {
        String kinds = "soul, user, memory-summary, vision, heartbeat-config, bootstrap, agent-guide";
        Tool read = new Tool(new ToolSpec("read_document", "Read one of your documents: " + kinds + ".",
                Toolbox.schema(List.of("kind"), "kind", "string")), false, in -> docs.read(kind(in)), null);
        Tool write = new Tool(new ToolSpec("write_document", "Replace one of your documents (not agent-guide).",
                Toolbox.schema(List.of("kind", "content"), "kind", "string", "content", "string")), true, in -> {
                    DocumentKind k = kind(in);
                    if (!k.writable()) {
                        throw new Tool.ToolError("the Agent Guide is read-only");
                    }
                    String content = Toolbox.text(in, "content");
                    docs.write(k, content);
                    return "replaced " + k.title() + " (" + content.length() + " characters)";
                }, in -> {
                    DocumentKind k = DocumentKind.parse(in.path("kind").asText(null));
                    return "replaced the " + (k == null ? "named" : k.title()) + " document with "
                            + in.path("content").asText("").length() + " characters of new text";
                });
        return List.of(read, write);
    }

    private static DocumentKind kind(com.fasterxml.jackson.databind.JsonNode in) throws Tool.ToolError {
        DocumentKind k = DocumentKind.parse(Toolbox.text(in, "kind"));
        if (k == null) {
            throw new Tool.ToolError("unknown document kind");
        }
        return k;
    }
}

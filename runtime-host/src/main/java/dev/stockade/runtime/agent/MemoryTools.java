package dev.stockade.runtime.agent;

import dev.stockade.runtime.provider.ToolSpec;
import java.util.List;
import java.util.stream.Collectors;

/** memory_write and memory_delete (frozen while locked) and memory_search (always available). */
final class MemoryTools {
    private static final int PREVIEW = 80;

    private MemoryTools() {
    }

    static List<Tool> all(Memory memory) {
        Tool write = new Tool(new ToolSpec("memory_write", "Store a durable fact in searchable memory.",
                Toolbox.schema(List.of("content"), "content", "string")), true, in -> {
                    String c = Toolbox.text(in, "content");
                    if (c.isBlank() || c.length() > 8000) {
                        throw new Tool.ToolError("`content` must be 1 to 8000 characters");
                    }
                    return "stored memory entry " + memory.write(c);
                }, in -> "stored a memory entry: \"" + preview(in.path("content").asText("")) + "\"");
        Tool delete = new Tool(new ToolSpec("memory_delete", "Delete a memory entry by id.",
                Toolbox.schema(List.of("id"), "id", "integer")), true, in -> {
                    long id = in.path("id").asLong(-1);
                    return memory.delete(id) ? "deleted memory entry " + id : "no memory entry " + id;
                }, in -> "deleted memory entry " + in.path("id").asText("?"));
        Tool search = new Tool(new ToolSpec("memory_search", "Search memory by meaning and words.",
                Toolbox.schema(List.of("query"), "query", "string", "limit", "integer")), false, in -> {
                    int limit = Math.max(1, Math.min(20, in.path("limit").asInt(5)));
                    List<Memory.Entry> hits = memory.search(Toolbox.text(in, "query"), limit);
                    return hits.isEmpty() ? "no matching memory" : hits.stream()
                            .map(h -> "[" + h.id() + "] " + h.content()).collect(Collectors.joining("\n"));
                }, null);
        return List.of(write, delete, search);
    }

    private static String preview(String s) {
        return s.length() <= PREVIEW ? s : s.substring(0, PREVIEW) + "…";
    }
}

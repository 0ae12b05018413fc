package dev.stockade.runtime.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.json.StrictJson;
import dev.stockade.runtime.provider.Item;
import dev.stockade.runtime.store.AgentProfile;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds what the model sees: the system prompt from the documents and the thread's history. */
final class Context {
    private Context() {
    }

    /**
     * The system prompt. Bootstrap (onboarding) is included only while unlocked: a locked agent keeps the
     * document and runs onboarding after unlock.
     */
    static String system(AgentProfile p, Documents docs) throws SQLException {
        StringBuilder sb = new StringBuilder();
        sb.append("You are ").append(p.name()).append(", an agent of team ").append(p.teamName()).append(".\n");
        Map<DocumentKind, String> all = docs.readAll();
        for (DocumentKind k : List.of(DocumentKind.AGENT_GUIDE, DocumentKind.SOUL, DocumentKind.USER,
                DocumentKind.MEMORY_SUMMARY, DocumentKind.VISION)) {
            section(sb, k.title(), all.get(k));
        }
        if (p.lockedIn()) {
            sb.append("\nYou are locked in: document and memory writes are withheld. If asked to change them, say "
                    + "what you would have changed and that the owner can lift the lock from the profile.\n");
        } else {
            section(sb, "Bootstrap (onboarding: follow it, then clear this document)", all.get(DocumentKind.BOOTSTRAP));
        }
        return sb.toString();
    }

    private static void section(StringBuilder sb, String title, String text) {
        if (text != null && !text.isBlank()) {
            sb.append("\n## ").append(title).append("\n").append(text.strip()).append("\n");
        }
    }

    /** The thread's summary (if any) followed by its messages not yet compacted. */
    static List<Item> history(Conversations.ThreadInfo thread, List<Conversations.Message> live) throws IOException {
        List<Item> items = new ArrayList<>();
        if (thread.summary() != null && !thread.summary().isBlank()) {
            items.add(new Item.UserText("Summary of the earlier conversation:\n" + thread.summary()));
            items.add(new Item.AssistantText("Understood."));
        }
        for (Conversations.Message m : live) {
            Item it = item(m);
            if (it != null) {
                items.add(it);
            }
        }
        return items;
    }

    static Item item(Conversations.Message m) throws IOException {
        switch (m.role()) {
            case "user":
                return new Item.UserText(m.content());
            case "assistant":
                return new Item.AssistantText(m.content());
            case "tool_use": {
                JsonNode n = StrictJson.object(m.content());
                return new Item.ToolCall(n.path("id").asText(), n.path("name").asText(), n.path("input"));
            }
            case "tool_result": {
                JsonNode n = StrictJson.object(m.content());
                return new Item.ToolResult(n.path("id").asText(), n.path("output").asText(), n.path("error").asBoolean());
            }
            default:
                return null;
        }
    }
}

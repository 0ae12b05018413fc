package dev.stockade.pii.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stockade.pii.WireFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Masks the free text of one inference request body: which JSON strings are text is the wire format's
 * business (message contents, system prompts, tool inputs and results, documents, and the citations of an
 * assistant turn sent back); keys, roles, model names, ids, URLs, numbers and signed reasoning
 * ({@link SignedReasoning}) are left exactly as they were. One book serves the whole body, so a value quoted from a
 * document masks to the document's placeholder.
 */
public final class BodyMasker {

    private final ObjectMapper json;
    private final RequestScan scan;

    public BodyMasker(ObjectMapper json, RequestScan scan) {
        this.json = json;
        this.scan = scan;
    }

    /** Masks {@code root} in place. */
    public void mask(JsonNode root, WireFormat format) {
        if (!(root instanceof ObjectNode body)) {
            throw new IllegalArgumentException("request body must be a JSON object");
        }
        switch (format) {
            case ANTHROPIC_MESSAGES, BEDROCK_INVOKE_ANTHROPIC -> anthropic(body);
            case OPENAI_CHAT -> openAiChat(body);
            case OPENAI_RESPONSES -> openAiResponses(body);
            case OPENAI_EMBEDDINGS -> textOrTexts(body, "input", "");
            case BEDROCK_CONVERSE -> converse(body);
        }
    }

    private void anthropic(ObjectNode body) {
        blocksOrText(body, "system", "");
        for (Item m : items(body, "messages", "")) {
            blocksOrText(m.node(), "content", m.pointer());
        }
    }

    private void blocksOrText(ObjectNode parent, String field, String at) {
        JsonNode v = parent.get(field);
        if (v != null && v.isTextual()) {
            text(parent, field, at);
            return;
        }
        for (Item b : items(parent, field, at)) {
            ObjectNode block = b.node();
            if (SignedReasoning.anthropicBlock(block)) {
                continue; // the answer left it masked (Restorer): it comes back with placeholders, as signed
            }
            text(block, "text", b.pointer());
            anyJson(block, "input", b.pointer());
            blocksOrText(block, "content", b.pointer());
            blockCitations(block, b.pointer());
            blockSource(block, b.pointer());
        }
    }

    /**
     * The citations of a text block the client sends back: the answer restored their text (a user reads it), so it
     * carries the caller's values. Masked with the request's one book, a value cited from a document gets that
     * document's placeholder. URLs, sources, indexes and encrypted indexes are pointers, not text.
     */
    private void blockCitations(ObjectNode block, String at) {
        for (Item c : items(block, "citations", at)) {
            text(c.node(), "cited_text", c.pointer());
            text(c.node(), "document_title", c.pointer());
            text(c.node(), "title", c.pointer());
        }
    }

    /** A document's or search result's own text: its title and context, a plain-text or custom-content source. */
    private void blockSource(ObjectNode block, String at) {
        String type = block.path("type").asText("");
        if (type.equals("document") || type.equals("search_result")) {
            text(block, "title", at);
            text(block, "context", at);
        }
        if (block.get("source") instanceof ObjectNode source) {
            switch (source.path("type").asText("")) {
                case "text" -> text(source, "data", at + "/source");
                case "content" -> blocksOrText(source, "content", at + "/source");
                default -> {
                    // base64 and URL PDFs, files: bytes or pointers the masker cannot read
                }
            }
        }
    }

    private void openAiChat(ObjectNode body) {
        for (Item m : items(body, "messages", "")) {
            blocksOrText(m.node(), "content", m.pointer());
            for (Item call : items(m.node(), "tool_calls", m.pointer())) {
                if (call.node().get("function") instanceof ObjectNode f) {
                    jsonText(f, "arguments", call.pointer() + "/function");
                }
            }
            if (m.node().get("function_call") instanceof ObjectNode f) {
                jsonText(f, "arguments", m.pointer() + "/function_call");
            }
        }
    }

    private void openAiResponses(ObjectNode body) {
        text(body, "instructions", "");
        if (body.path("input").isTextual()) {
            text(body, "input", "");
            return;
        }
        for (Item item : items(body, "input", "")) {
            ObjectNode n = item.node();
            blocksOrText(n, "content", item.pointer());
            jsonText(n, "arguments", item.pointer());
            blocksOrText(n, "output", item.pointer());
            if (n.path("type").asText("").equals("custom_tool_call")) {
                text(n, "input", item.pointer());
            }
            // a reasoning item's summary is plain text beside its encrypted_content, signed by nothing; the answer
            // restored it, so a client sending the item back would otherwise send the caller's values
            for (Item part : items(n, "summary", item.pointer())) {
                text(part.node(), "text", part.pointer());
            }
        }
    }

    private void converse(ObjectNode body) {
        for (Item s : items(body, "system", "")) {
            text(s.node(), "text", s.pointer());
        }
        for (Item m : items(body, "messages", "")) {
            for (Item c : items(m.node(), "content", m.pointer())) {
                converseBlock(c.node(), c.pointer());
            }
        }
    }

    // reasoningContent is signed reasoning (SignedReasoning): not visited, so it goes on as the client sent it
    private void converseBlock(ObjectNode block, String at) {
        text(block, "text", at);
        anyJson(block, "json", at);
        if (block.get("toolUse") instanceof ObjectNode use) {
            anyJson(use, "input", at + "/toolUse");
        }
        if (block.get("toolResult") instanceof ObjectNode result) {
            for (Item c : items(result, "content", at + "/toolResult")) {
                converseBlock(c.node(), c.pointer());
            }
        }
        converseSources(block, at);
        if (block.get("citationsContent") instanceof ObjectNode cited) {
            converseCitations(cited, at + "/citationsContent");
        }
    }

    /** A document's text (inline text, custom content, context) and a search result's title and content. */
    private void converseSources(ObjectNode block, String at) {
        if (block.get("document") instanceof ObjectNode document) {
            String p = at + "/document";
            text(document, "context", p);
            if (document.get("source") instanceof ObjectNode source) {
                text(source, "text", p + "/source");
                textsOf(source, "content", p + "/source");
            }
        }
        if (block.get("searchResult") instanceof ObjectNode result) {
            text(result, "title", at + "/searchResult");
            textsOf(result, "content", at + "/searchResult");
        }
    }

    /**
     * An assistant turn's cited text sent back: the generated text and each citation's title and quoted source
     * text, restored in the answer, masked here with the same book as the documents they quote. A citation's
     * {@code source} (a URL or an identifier) and {@code location} (indexes, URL, domain) are pointers.
     */
    private void converseCitations(ObjectNode cited, String at) {
        textsOf(cited, "content", at);
        for (Item c : items(cited, "citations", at)) {
            text(c.node(), "title", c.pointer());
            textsOf(c.node(), "sourceContent", c.pointer());
        }
    }

    /** The {@code text} of every object in the array {@code field}. */
    private void textsOf(ObjectNode parent, String field, String at) {
        for (Item t : items(parent, field, at)) {
            text(t.node(), "text", t.pointer());
        }
    }

    private void textOrTexts(ObjectNode parent, String field, String at) {
        JsonNode v = parent.get(field);
        if (v != null && v.isTextual()) {
            text(parent, field, at);
        } else if (v instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                if (array.get(i).isTextual()) {
                    array.set(i, TextNode.valueOf(scan.mask(array.get(i).textValue(), at + "/" + field + "/" + i)));
                }
            }
        }
    }

    private void text(ObjectNode parent, String field, String at) {
        JsonNode v = parent.get(field);
        if (v != null && v.isTextual()) {
            parent.put(field, scan.mask(v.textValue(), at + "/" + escape(field)));
        }
    }

    /** A string holding JSON (OpenAI tool arguments): mask its string values, or the whole text if not JSON. */
    private void jsonText(ObjectNode parent, String field, String at) {
        JsonNode v = parent.get(field);
        if (v == null || !v.isTextual()) {
            return;
        }
        try {
            JsonNode inner = json.readTree(v.textValue());
            if (inner != null && inner.isContainerNode()) {
                strings(inner, at + "/" + field);
                parent.put(field, json.writeValueAsString(inner));
                return;
            }
        } catch (JsonProcessingException notJson) {
            // arguments a model wrote badly are still text that may hold personal data
        }
        text(parent, field, at);
    }

    private void anyJson(ObjectNode parent, String field, String at) {
        JsonNode v = parent.get(field);
        if (v == null) {
            return;
        }
        if (v.isTextual()) {
            text(parent, field, at);
        } else {
            strings(v, at + "/" + escape(field));
        }
    }

    /** Masks every string value under {@code node}; object keys are never touched. */
    private void strings(JsonNode node, String at) {
        if (node instanceof ObjectNode o) {
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(o.properties());
            for (Map.Entry<String, JsonNode> e : fields) {
                String p = at + "/" + escape(e.getKey());
                if (e.getValue().isTextual()) {
                    o.put(e.getKey(), scan.mask(e.getValue().textValue(), p));
                } else {
                    strings(e.getValue(), p);
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual()) {
                    a.set(i, TextNode.valueOf(scan.mask(a.get(i).textValue(), at + "/" + i)));
                } else {
                    strings(a.get(i), at + "/" + i);
                }
            }
        }
    }

    private record Item(ObjectNode node, String pointer) {
    }

    private static List<Item> items(ObjectNode parent, String field, String at) {
        List<Item> out = new ArrayList<>();
        if (parent.get(field) instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                if (array.get(i) instanceof ObjectNode o) {
                    out.add(new Item(o, at + "/" + escape(field) + "/" + i));
                }
            }
        }
        return out;
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}

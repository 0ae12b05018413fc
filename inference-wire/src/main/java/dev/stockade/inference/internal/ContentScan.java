package dev.stockade.inference.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;

/**
 * Finds request content whose token count the body's bytes do not bound: a reference the provider fetches or
 * expands (URL, file id, S3 location, stored conversation), a document or video (billed per page or frame), or a
 * server-side tool whose results are added to the input. Such a request is bounded by the context window instead.
 */
public final class ContentScan {

    private static final Set<String> REFERENCE_KEYS = Set.of("file_id", "file_url", "s3Location", "fileUri",
            "previous_response_id", "conversation", "container", "mcp_servers");
    private static final Set<String> URL_KEYS = Set.of("url", "image_url", "uri", "video_url", "audio_url");
    private static final Set<String> BLOCK_KEYS = Set.of("document", "video");
    private static final Set<String> BLOCK_TYPES = Set.of("document", "file", "input_file", "video", "video_url",
            "container_upload");
    private static final String[] SERVER_TOOL_PREFIXES = {"web_search", "web_fetch", "code_execution",
            "code_interpreter", "file_search", "mcp", "tool_search", "image_generation"};

    private ContentScan() {
    }

    /** True when anything in {@code root} pulls in input its bytes do not bound. */
    public static boolean pullsUnboundedInput(JsonNode root) {
        Deque<JsonNode> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            JsonNode node = pending.pop();
            if (node.isArray()) {
                node.forEach(pending::push);
            } else if (node.isObject()) {
                if (unboundedObject(node)) {
                    return true;
                }
                node.forEach(pending::push);
            }
        }
        return false;
    }

    private static boolean unboundedObject(JsonNode node) {
        JsonNode type = node.get("type");
        if (type != null && type.isTextual() && unboundedType(type.asText())) {
            return true;
        }
        // A stored prompt template (Responses `prompt: {id}`); a plain `prompt` string is ordinary text.
        if (node.path("prompt").isObject()) {
            return true;
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (unboundedField(field.getKey(), field.getValue())) {
                return true;
            }
        }
        return false;
    }

    private static boolean unboundedField(String key, JsonNode value) {
        if (REFERENCE_KEYS.contains(key) && !value.isNull()) {
            return true;
        }
        if (BLOCK_KEYS.contains(key) && value.isObject()) {
            return true;
        }
        // Inline `data:` URLs carry their bytes in the body and stay bounded by them.
        return URL_KEYS.contains(key) && value.isTextual() && !value.asText().regionMatches(true, 0, "data:", 0, 5);
    }

    private static boolean unboundedType(String type) {
        if (BLOCK_TYPES.contains(type)) {
            return true;
        }
        for (String prefix : SERVER_TOOL_PREFIXES) {
            if (type.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}

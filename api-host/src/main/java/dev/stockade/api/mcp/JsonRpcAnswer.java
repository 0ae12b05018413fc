package dev.stockade.api.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;

/**
 * The shape of a JSON-RPC 2.0 answer on the MCP endpoint, for the OpenAPI document: {@link McpServer} writes these
 * bytes itself (the tools/list answer is spliced around a cached listing), so this record describes the wire, it
 * does not produce it. Exactly one of {@code result} and {@code error} is present.
 */
@Introspected
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JsonRpcAnswer(String jsonrpc, @Nullable JsonNode id, @Nullable JsonNode result,
                            @Nullable Failure error) {

    /** A JSON-RPC error: its code ({@code -32600} invalid request, {@code -32601}, {@code -32602}, ...) and why. */
    @Introspected
    public record Failure(int code, String message) {
    }
}

package dev.stockade.api.kernel.tools;

import io.micronaut.core.annotation.Introspected;
import java.util.UUID;

/**
 * The answer of a delete through an MCP tool: the id of what is gone (REST answers 204 with no body, but a tool
 * result must say something).
 *
 * @param deleted the id of the deleted resource
 */
@Introspected
public record Deleted(UUID deleted) {
}

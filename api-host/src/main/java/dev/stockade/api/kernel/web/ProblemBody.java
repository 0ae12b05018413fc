package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * An RFC 9457 problem details body as every surface answers it (REST, MCP tool results, the exec socket): made only
 * by {@link Problems}, so each carries its {@code type}, {@code code} and, when fields failed, {@code errors}.
 */
@Introspected
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProblemBody(String type, String title, int status, String detail, String code,
                          @Nullable List<FieldError> errors) {
}

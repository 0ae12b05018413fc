package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;

/**
 * One failed field of a request body: where (an RFC 6901 pointer into the body), a stable code and a sentence, and
 * for bodies the policy core reads with positions (YAML or JSON) the 1-based line and column; those two are left out
 * of the JSON when unknown.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FieldError(String pointer, String code, String detail, @Nullable Integer line, @Nullable Integer column) {

    public FieldError(String pointer, String code, String detail) {
        this(pointer, code, detail, null, null);
    }
}

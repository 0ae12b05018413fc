package dev.stockade.api.web;

/** One failed field of a request body: where (an RFC 6901 pointer into the body), a stable code and a sentence. */
public record FieldError(String pointer, String code, String detail) {
}

package dev.stockade.cli.rest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The platform refused a request: its HTTP status and the RFC 9457 problem details body it sent
 * ({@code type}, {@code title}, {@code status}, {@code detail}, {@code code}, {@code errors}).
 */
public final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final transient JsonNode problem;

    Refused(int status, JsonNode problem) {
        super("HTTP " + status, null, false, false);
        this.status = status;
        this.problem = problem;
    }

    public int status() {
        return status;
    }

    public JsonNode problem() {
        return problem;
    }
}

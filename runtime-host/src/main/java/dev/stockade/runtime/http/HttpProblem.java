package dev.stockade.runtime.http;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An error answered as RFC 9457 problem details: a status, a stable slug (the {@code type} is
 * {@code urn:stockade:runtime:<slug>}) and a one-line detail that never carries a secret.
 */
public final class HttpProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String slug;

    public HttpProblem(int status, String slug, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.slug = slug;
    }

    public int status() {
        return status;
    }

    public String slug() {
        return slug;
    }

    /** The {@code application/problem+json} response. */
    public Response toResponse() {
        return new Response(status, "application/problem+json", Response.bytes(body()));
    }

    /** The problem object itself (also the data of a streamed answer's {@code error} event). */
    public ObjectNode body() {
        ObjectNode n = Request.JSON.createObjectNode();
        n.put("type", "urn:stockade:runtime:" + slug);
        n.put("title", title(status));
        n.put("status", status);
        n.put("detail", getMessage());
        return n;
    }

    private static String title(int status) {
        switch (status) {
            case 400: return "Bad Request";
            case 403: return "Forbidden";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 409: return "Conflict";
            case 413: return "Payload Too Large";
            case 429: return "Too Many Requests";
            case 502: return "Bad Gateway";
            case 503: return "Service Unavailable";
            default: return "Internal Server Error";
        }
    }
}

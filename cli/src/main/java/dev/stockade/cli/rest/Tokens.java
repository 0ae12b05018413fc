package dev.stockade.cli.rest;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What API tokens and sandbox tokens have in common: listing, creating (the secret shown once), revoking. */
final class Tokens {
    static final List<Output.Column> TOKEN = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("PREFIX", "prefix"), Output.Column.time("CREATED", "createdAt"),
            Output.Column.time("EXPIRES", "expiresAt"), Output.Column.time("REVOKED", "revokedAt"));
    static final List<Output.Column> CREATED = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("PREFIX", "prefix"), Output.Column.time("EXPIRES", "expiresAt"),
            Output.Column.of("TOKEN", "token"));

    private Tokens() {
    }

    static int list(ApiOptions api, String path) {
        return api.call((client, out) -> out.list(client.get(path), TOKEN));
    }

    /** Creates a token; the answer carries the secret, printed this once and never again. */
    static int create(ApiOptions api, String path, String name, String expires) {
        return api.call((client, out) -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", name);
            if (expires != null) {
                body.put("expiresAt", Times.parse("--expires", expires, true, Instant.now()).toString());
            }
            JsonNode created = client.post(path, body);
            out.record(created, CREATED);
            out.note(out.format() == Output.Format.id
                    ? "--format id printed only the id: the token itself is not shown and cannot be shown again"
                    : "the token is shown once: store it now (the platform keeps only its hash)");
        });
    }

    static int revoke(ApiOptions api, String path, String id, String what) {
        return api.call((client, out) -> {
            client.delete(path);
            out.done("revoked " + what + " " + id);
        });
    }
}

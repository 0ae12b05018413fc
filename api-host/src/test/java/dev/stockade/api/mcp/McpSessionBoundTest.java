package dev.stockade.api.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Remembered MCP sessions never outlive their bound: one ended on this replica is gone at once, one ended on
 * another replica (its row deleted) within {@code config.token-cache-ttl}, and an id is never lent to another caller.
 */
@MicronautTest(transactional = false)
class McpSessionBoundTest extends PlatformTest {
    private static final Duration TTL = Duration.ofSeconds(8);
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}";
    private final HttpClient client = HttpClient.newHttpClient();

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("config.token-cache-ttl", TTL.toSeconds() + "s");
    }

    private HttpResponse<String> send(String method, String token, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.getURI().resolve("/mcp"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        try {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError("MCP request failed", e);
        }
    }

    private String open(String token) {
        HttpResponse<String> init = send("POST", token, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
                + "\"version\":\"1\"}}}");
        String session = init.headers().firstValue("mcp-session-id").orElseThrow(() ->
                new AssertionError("no session: " + init.statusCode() + " " + init.body()));
        assertThat(send("POST", token, session, LIST).statusCode()).isEqualTo(200); // now remembered
        return session;
    }

    @Test
    void aSessionEndedHereIsGoneAtOnce() {
        String owner = ownerToken();
        String session = open(owner);
        assertThat(send("DELETE", owner, session, null).statusCode()).isEqualTo(204);
        assertThat(send("POST", owner, session, LIST).statusCode()).isEqualTo(404);
    }

    @Test
    void aSessionEndedByAnotherReplicaIsGoneWithinTheBound() {
        String owner = ownerToken();
        String session = open(owner);
        long endedAt = System.nanoTime();
        server.getApplicationContext().getBean(Sql.class).update("DELETE FROM mcp_sessions WHERE id = ?",
                List.of(session));
        Await.until("the ended session to be refused", TTL.multipliedBy(3),
                () -> send("POST", owner, session, LIST).statusCode() == 404);
        assertThat(Duration.ofNanos(System.nanoTime() - endedAt)).isLessThan(TTL.plusSeconds(3));
    }

    @Test
    void aRememberedSessionIsNotLentToAnotherCaller() {
        String owner = ownerToken();
        String session = open(owner);
        String org = createOrg(owner, "sessions");
        String other = createApiToken(owner, org, "other");
        assertThat(send("POST", other, session, LIST).statusCode()).isEqualTo(404);
        assertThat(send("POST", owner, session, LIST).statusCode()).isEqualTo(200);
    }
}

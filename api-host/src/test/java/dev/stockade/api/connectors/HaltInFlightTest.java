package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A halt cancels a call in flight and refuses the next. The call bound is a minute here, so that only the halt can end
 * the call to the silent upstream: with the 3 s bound of {@link HostileUpstreamTest} a halt that took longer than that
 * to arrive on a loaded machine let the call time out first.
 */
@MicronautTest(transactional = false)
class HaltInFlightTest extends HostileUpstreamFixture {

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("connectors.allow-loopback-unsafe", "true", "connectors.call-timeout", "60s");
    }

    @Test
    void aHaltCancelsACallInFlightAndRefusesTheNext() throws Exception {
        World w = world();
        silentCalls.drainPermits();
        CompletableFuture<JsonNode> inFlight = CompletableFuture.supplyAsync(() -> call(w, "silent__t"));
        // halt once the call waits on the silent upstream (a halt before it arrives would refuse it instead)
        assertThat(silentCalls.tryAcquire(60, TimeUnit.SECONDS)).as("the call reached the upstream").isTrue();
        assertThat(http.post("/v1/orgs/" + w.org() + "/halt", ownerToken(), null).status()).isEqualTo(200);
        JsonNode cancelled = inFlight.get(60, TimeUnit.SECONDS);
        assertThat(cancelled.path("isError").asBoolean()).isTrue();
        assertThat(cancelled.path("structuredContent").path("code").asText()).isEqualTo("halted");
        // while halted the organization's connector tools are not listed, so a call is refused like an unknown tool
        Http.Response next = http.post("/v1/projects/" + w.project() + "/mcp-servers/tools/call", w.token(),
                Map.of("name", "garbage__t", "arguments", Map.of()));
        assertThat(problem(next, 404)).isEqualTo("not_found");
        JsonNode trail = http.get("/v1/orgs/" + w.org() + "/audit-trail?kind=tool-call&outcome=cancelled",
                ownerToken()).body().path("items");
        assertThat(trail).hasSize(1);
    }
}

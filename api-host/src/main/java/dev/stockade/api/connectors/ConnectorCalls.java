package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.halt.HaltService;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calls a connector tool on behalf of a caller, under the organization's halt: a halted organization's calls are
 * refused, and a halt cancels the calls in flight on every replica (the {@code halt} event reaches each one).
 */
@Singleton
public class ConnectorCalls {
    private final UpstreamClient upstream;
    private final HttpOperations operations;
    private final ConnectorCredentials credentials;
    private final HaltService halts;
    private final Map<UUID, Set<Cancellation>> inFlight = new ConcurrentHashMap<>();
    /** The halted organizations, read once and then after every halt event (on every replica). */
    private volatile Set<UUID> halted;

    public ConnectorCalls(UpstreamClient upstream, HttpOperations operations, ConnectorCredentials credentials,
                          HaltService halts, EventStream events) {
        this.upstream = upstream;
        this.operations = operations;
        this.credentials = credentials;
        this.halts = halts;
        events.subscribe(Topic.HALT, e -> {
            reloadHalted();
            if (e.payload().path("halted").asBoolean()) {
                inFlight.getOrDefault(e.orgId(), Set.of()).forEach(Cancellation::cancel);
            }
        });
    }

    private Set<UUID> halted() {
        Set<UUID> now = halted;
        return now != null ? now : reloadHalted();
    }

    /** Serialised, so a first load and an event's reload cannot store an older set over a newer one. */
    private synchronized Set<UUID> reloadHalted() {
        halted = halts.haltedOrgs();
        return halted;
    }

    /** The upstream's {@code CallToolResult}; an {@link UpstreamClient.UpstreamException} says why there is none. */
    public JsonNode call(GrantedTools.Exposed exposed, JsonNode arguments) throws UpstreamClient.UpstreamException {
        Connector connector = exposed.connector();
        Cancellation cancel = new Cancellation();
        Set<Cancellation> mine = inFlight.computeIfAbsent(connector.orgId(), k -> ConcurrentHashMap.newKeySet());
        mine.add(cancel);
        try {
            if (halted().contains(connector.orgId())) { // after registering: a halt from now on cancels this call
                throw new UpstreamClient.Halted("the organization is halted: connector calls are stopped");
            }
            Map<String, String> auth = credentials.headers(connector, exposed.credentialId());
            JsonNode result = connector.kind().equals("http")
                    ? operations.call(connector, exposed.tool(), arguments, auth, cancel)
                    : upstream.call(URI.create(connector.url()), auth, exposed.tool().name(), arguments, cancel);
            if (!result.path("content").isArray()) {
                throw new UpstreamClient.UpstreamException("the upstream's tool result has no `content` array");
            }
            return result;
        } finally {
            mine.remove(cancel);
        }
    }
}

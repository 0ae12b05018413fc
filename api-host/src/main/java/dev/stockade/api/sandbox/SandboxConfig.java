package dev.stockade.api.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What one revision of a sandbox is provisioned from: resources, image, attached policies (project or org policy
 * ids, in order), attached project credentials, the embedded policy (or null) and exposed ports.
 */
public record SandboxConfig(String cpu, long cpuMillis, String memory, long memoryBytes, String image,
                            List<UUID> policies, List<UUID> credentials, JsonNode policy, List<Port> ports) {
    /** An exposed port: {@code private} (bearer token, session cookie) or {@code public}. */
    public record Port(int port, String visibility) {
    }

    public SandboxConfig {
        policies = List.copyOf(policies);
        credentials = List.copyOf(credentials);
        ports = List.copyOf(ports);
        policy = policy == null ? NullNode.getInstance() : policy;
    }

    /** The embedded policy, or null. */
    public JsonNode embedded() {
        return policy.isNull() ? null : policy;
    }

    ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("cpu", cpu);
        n.put("memory", memory);
        if (image != null) {
            n.put("image", image);
        }
        ArrayNode ps = n.putArray("policies");
        policies.forEach(id -> ps.add(id.toString()));
        ArrayNode cs = n.putArray("credentials");
        credentials.forEach(id -> cs.add(id.toString()));
        n.set("policy", policy);
        ArrayNode ports = n.putArray("ports");
        this.ports.forEach(p -> ports.addObject().put("port", p.port()).put("visibility", p.visibility()));
        return n;
    }

    static SandboxConfig fromJson(JsonNode n) {
        List<UUID> policies = new ArrayList<>();
        n.path("policies").forEach(p -> policies.add(UUID.fromString(p.asText())));
        List<UUID> credentials = new ArrayList<>();
        n.path("credentials").forEach(p -> credentials.add(UUID.fromString(p.asText())));
        List<Port> ports = new ArrayList<>();
        n.path("ports").forEach(p -> ports.add(new Port(p.path("port").asInt(), p.path("visibility").asText())));
        String cpu = n.path("cpu").asText();
        String memory = n.path("memory").asText();
        return new SandboxConfig(cpu, Quantities.cpuMillis(cpu), memory, Quantities.memoryBytes(memory),
                n.hasNonNull("image") ? n.path("image").asText() : null, policies, credentials, n.path("policy"), ports);
    }
}

package dev.stockade.api.impact;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.policy.impact.SuggestOptions;
import dev.stockade.policy.impact.Suggester;
import dev.stockade.policy.impact.Suggestion;
import dev.stockade.policy.impact.TrailEntries;
import dev.stockade.policy.model.ConnectorGrant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A suggestion narrowed to a sandbox keeps the tool calls made with the sandbox's token: the entries below are written
 * in the trail's exported shape, attributed, and read by the core's suggester; what it grants is worked out by hand.
 */
class SandboxCallersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID SANDBOX = UUID.fromString("6f1c0f53-6a43-4f59-9a0b-3f4c7a2a9d11");
    private static final UUID ITS_TOKEN = UUID.fromString("0d7e3c2a-9b1f-4c55-8e0a-7f2d6b3c4a21");
    private static final UUID LOOSE_TOKEN = UUID.fromString("5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d");
    private static final String CONNECTOR = "0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10";

    @Test
    void aToolCallWithTheSandboxsTokenIsTheSandboxsAndAnotherTokensStaysAnotherCallers() {
        SandboxCallers callers = new SandboxCallers(t -> t.equals(ITS_TOKEN) ? Optional.of(SANDBOX) : Optional.empty());
        Suggester suggester = new Suggester(SuggestOptions.defaults().withSandbox(SANDBOX.toString()));
        for (ObjectNode entry : List.of(toolCall(ITS_TOKEN, "create_issue"), toolCall(LOOSE_TOKEN, "delete_repo"),
                egress())) {
            suggester.add(TrailEntries.read(callers.attributed(entry)));
        }
        Suggestion s = suggester.suggestion();
        assertThat(s.used()).isEqualTo(2);
        assertThat(s.otherSandbox()).isEqualTo(1);
        assertThat(s.policy().connectors()).containsExactly(new ConnectorGrant(CONNECTOR, List.of("create_issue"),
                null));
    }

    @Test
    void onlyASandboxTokensActorIsRewritten() {
        SandboxCallers callers = new SandboxCallers(t -> Optional.of(SANDBOX));
        ObjectNode person = toolCall(ITS_TOKEN, "create_issue");
        ((ObjectNode) person.get("actor")).put("type", "user");
        assertThat(callers.attributed(person.deepCopy())).isEqualTo(person);
        ObjectNode malformed = toolCall(ITS_TOKEN, "create_issue");
        ((ObjectNode) malformed.get("actor")).put("id", "not-a-uuid");
        assertThat(callers.attributed(malformed.deepCopy())).isEqualTo(malformed);
        assertThat(callers.attributed(toolCall(ITS_TOKEN, "x")).path("actor"))
                .isEqualTo(JSON.valueToTree(Map.of("type", "sandbox", "id", SANDBOX.toString())));
    }

    private static ObjectNode toolCall(UUID token, String tool) {
        ObjectNode e = JSON.createObjectNode().put("at", "2026-11-20T10:00:00Z").put("kind", "tool-call")
                .put("action", "call").put("outcome", "success").put("target", "github__" + tool);
        e.putObject("actor").put("type", "sandbox-token").put("id", token.toString());
        e.putObject("details").put("connectorId", CONNECTOR).put("upstreamTool", tool).put("via", "mcp");
        return e;
    }

    private static ObjectNode egress() {
        ObjectNode e = JSON.createObjectNode().put("at", "2026-11-20T10:01:00Z").put("kind", "egress")
                .put("action", "allow").put("outcome", "success").put("target", "api.github.com:443");
        e.putObject("actor").put("type", "sandbox").put("id", SANDBOX.toString());
        e.putObject("details").put("listener", "connect").put("reason", "entry-allow");
        return e;
    }
}

package dev.stockade.runtime.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Messages request body, written field by field, byte for byte as the API's documentation shows it. */
class AnthropicBodyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ModelRequest request = new ModelRequest("claude-opus-5", "be \"brief\"",
            List.of(new Item.UserText("hi"), new Item.AssistantText("hello"), new Item.ToolCall("t1", "shell",
                    JSON.createObjectNode().put("command", "ls")), new Item.ToolResult("t1", "a.txt", true),
                    new Item.UserText("and?"), new Item.UserText("then")),
            List.of(new ToolSpec("shell", "run a command", JSON.createObjectNode().put("type", "object"))), 512);

    private static final String MESSAGES = "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\","
            + "\"text\":\"hi\"}]},"
            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"hello\"},{\"type\":\"tool_use\","
            + "\"id\":\"t1\",\"name\":\"shell\",\"input\":{\"command\":\"ls\"}}]},{\"role\":\"user\",\"content\":["
            + "{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"a.txt\",\"is_error\":true},"
            + "{\"type\":\"text\",\"text\":\"and?\"},{\"type\":\"text\",\"text\":\"then\"}]}],"
            + "\"tools\":[{\"name\":\"shell\",\"description\":\"run a command\","
            + "\"input_schema\":{\"type\":\"object\"}}]";

    @Test
    void theSseBodyNamesTheModelAndAsksForAStream() {
        assertThat(new String(AnthropicMessages.body(request, false), StandardCharsets.UTF_8)).isEqualTo(
                "{\"max_tokens\":512,\"system\":\"be \\\"brief\\\"\"," + MESSAGES
                        + ",\"model\":\"claude-opus-5\",\"stream\":true}");
    }

    @Test
    void theBedrockBodyNamesTheApiVersionAndNoModel() {
        assertThat(new String(AnthropicMessages.body(request, true), StandardCharsets.UTF_8)).isEqualTo(
                "{\"max_tokens\":512,\"system\":\"be \\\"brief\\\"\"," + MESSAGES
                        + ",\"anthropic_version\":\"bedrock-2023-05-31\"}");
    }

    @Test
    void noSystemPromptAndNoToolsLeaveTheirFieldsOut() {
        ModelRequest bare = new ModelRequest("m", "", List.of(new Item.UserText("x")), List.of(), 16);
        assertThat(new String(AnthropicMessages.body(bare, false), StandardCharsets.UTF_8)).isEqualTo(
                "{\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\","
                        + "\"text\":\"x\"}]}],"
                        + "\"model\":\"m\",\"stream\":true}");
    }
}

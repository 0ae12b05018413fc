package dev.stockade.runtime.observe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LogTest {
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    @AfterEach
    void restore() {
        Log.to(System.err);
    }

    @Test
    void aFieldNamedLikeTheLinesOwnKeysKeepsThemAndIsWrittenApart() throws Exception {
        Log.to(new PrintStream(captured, true, StandardCharsets.UTF_8));
        Log.info("webhook.ignored", "event", "push", "level", "debug", "ts", "then", "webhook", "github");

        JsonNode line = new ObjectMapper().readTree(captured.toString(StandardCharsets.UTF_8));
        assertThat(line.path("event").asText()).isEqualTo("webhook.ignored");
        assertThat(line.path("level").asText()).isEqualTo("info");
        assertThat(line.path("ts").asText()).isNotEqualTo("then").matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(line.path("field.event").asText()).isEqualTo("push");
        assertThat(line.path("field.level").asText()).isEqualTo("debug");
        assertThat(line.path("field.ts").asText()).isEqualTo("then");
        assertThat(line.path("webhook").asText()).isEqualTo("github");
    }
}

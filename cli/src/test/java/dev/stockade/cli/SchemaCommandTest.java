package dev.stockade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.cli.schema.PublishedSchemas;
import dev.stockade.cli.schema.SchemaKind;
import org.junit.jupiter.api.Test;

/** {@code stockade schema KIND}: prints the published schema; anything else is a usage error that names the kinds. */
class SchemaCommandTest {
    @Test
    void eachKindPrintsItsSchema() throws Exception {
        for (SchemaKind kind : SchemaKind.values()) {
            CliRun run = CliRun.of("schema", kind.word());
            assertThat(run.status()).isZero();
            assertThat(run.out()).isEqualTo(PublishedSchemas.text(kind));
            assertThat(new ObjectMapper().readTree(run.out()).path("$id").asText()).endsWith("/" + kind.fileName());
        }
    }

    @Test
    void anUnknownKindIsAUsageErrorWithoutAStackTrace() {
        CliRun run = CliRun.of("schema", "policies");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("`policies` is not a schema kind; use policy, test or sandbox")
                .doesNotContain("Exception").doesNotContain("\tat ");
    }
}

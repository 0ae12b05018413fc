package dev.stockade.cli.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.model.IntegrationType;
import dev.stockade.policy.model.MaskingType;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.Provider;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The committed schemas are the generated ones, and the policy schema's closed sets are the model's enums. */
class PublishedSchemasTest {
    private static final Path DOCS = Path.of("../docs/schema");

    @ParameterizedTest
    @EnumSource(SchemaKind.class)
    void theCommittedSchemaIsTheGeneratedOne(SchemaKind kind) throws IOException {
        String committed = Files.readString(DOCS.resolve(kind.fileName()));
        // Regenerate with: ./stockade schema <kind> > docs/schema/<file> (docs/cli.md, "Schemas for editors and CI")
        assertThat(committed).as("docs/schema/%s is stale: regenerate it with `stockade schema %s`",
                kind.fileName(), kind.word()).isEqualTo(PublishedSchemas.text(kind));
    }

    @ParameterizedTest
    @EnumSource(SchemaKind.class)
    void everySchemaLoadsAsDraft07WithItsOwnId(SchemaKind kind) {
        JsonNode schema = PublishedSchemas.of(kind);
        assertThat(schema.path("$schema").asText()).isEqualTo("http://json-schema.org/draft-07/schema#");
        assertThat(schema.path("$id").asText()).isEqualTo("https://stockade.dev/schemas/" + kind.fileName());
        SchemaValidator.load(PublishedSchemas.text(kind)); // throws on a schema everit cannot read
    }

    @Test
    void thePolicySchemasClosedSetsAreTheModelsEnums() {
        JsonNode defs = PublishedSchemas.of(SchemaKind.POLICY).path("definitions");
        assertThat(values(defs.at("/verdict/enum"))).isEqualTo(wires(Verdict.values(), Verdict::wire));
        assertThat(values(defs.at("/transport/enum"))).isEqualTo(wires(Transport.values(), Transport::wire));
        assertThat(values(defs.at("/provider/enum"))).isEqualTo(wires(Provider.values(), Provider::wire));
        assertThat(values(defs.at("/integration/properties/type/enum")))
                .isEqualTo(wires(IntegrationType.values(), IntegrationType::wire));
        assertThat(values(defs.at("/graphql/properties/operationType/enum")))
                .isEqualTo(wires(OperationType.values(), OperationType::wire));
        assertThat(values(defs.at("/piiMasking/properties/types/items/enum")))
                .isEqualTo(wires(MaskingType.values(), MaskingType::wire));
    }

    @Test
    void testAndSandboxSchemasEmbedThePolicySchemaUnchanged() {
        JsonNode policy = PublishedSchemas.of(SchemaKind.POLICY);
        for (SchemaKind kind : List.of(SchemaKind.TEST, SchemaKind.SANDBOX)) {
            JsonNode schema = PublishedSchemas.of(kind);
            assertThat(schema.at("/definitions/policy/properties")).isEqualTo(policy.path("properties"));
            policy.path("definitions").properties().forEach(e ->
                    assertThat(schema.path("definitions").path(e.getKey())).isEqualTo(e.getValue()));
        }
    }

    private static List<String> values(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out.stream().sorted().toList();
    }

    private static <E> List<String> wires(E[] values, Function<E, String> wire) {
        return Arrays.stream(values).map(wire).sorted().toList();
    }
}

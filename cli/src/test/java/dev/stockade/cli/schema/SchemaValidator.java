package dev.stockade.cli.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.everit.json.schema.Schema;
import org.everit.json.schema.ValidationException;
import org.everit.json.schema.loader.SchemaLoader;
import org.json.JSONObject;
import org.json.JSONTokener;

/** A published schema loaded into everit, exactly as a third party would load the committed file (tests). */
public final class SchemaValidator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Schema schema;

    private SchemaValidator(Schema schema) {
        this.schema = schema;
    }

    /** Loads the schema text (draft-07). */
    public static SchemaValidator load(String schemaText) {
        JSONObject raw = new JSONObject(new JSONTokener(schemaText));
        return new SchemaValidator(SchemaLoader.builder().draftV7Support().schemaJson(raw).build().load().build());
    }

    /** The violations of {@code document} (pointer: message), empty when it conforms. */
    public List<String> violations(JsonNode document) {
        Object subject = new JSONTokener(JSON.valueToTree(document).toString()).nextValue();
        try {
            schema.validate(subject);
            return List.of();
        } catch (ValidationException e) {
            return e.getAllMessages().isEmpty() ? List.of(e.getMessage()) : new ArrayList<>(e.getAllMessages());
        }
    }
}

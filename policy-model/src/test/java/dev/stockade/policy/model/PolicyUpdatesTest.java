package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class PolicyUpdatesTest {
    private static final ObjectMapper M = new ObjectMapper();

    static JsonNode json(String s) {
        try {
            return M.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static final String STORED = "{'name':'p','description':'d','allowedDomains':[{'pattern':'a.com','verdict':'allow'}],"
            + "'piiMasking':{'types':['EMAIL']},'managedInference':{'enabled':true},'env':{'A':'1'}}";

    @Test
    void standaloneReplacesSuppliedFieldsWholeAndKeepsOmitted() {
        UpdateResult r = PolicyUpdates.standalone(json(STORED),
                json("{'name':'p','allowedDomains':[{'pattern':'b.com','verdict':'deny'}]}"));
        assertThat(r.applied()).isTrue();
        assertThat(r.result().get("allowedDomains")).isEqualTo(json("[{'pattern':'b.com','verdict':'deny'}]"));
        assertThat(r.result().get("description").asText()).isEqualTo("d");
        assertThat(r.result().get("env")).isEqualTo(json("{'A':'1'}"));
    }

    @Test
    void standaloneEmptyArrayClearsAndNameIsAlwaysWritten() {
        UpdateResult r = PolicyUpdates.standalone(json(STORED), json("{'name':'renamed','allowedDomains':[]}"));
        assertThat(r.applied()).isTrue();
        assertThat(r.result().get("allowedDomains")).isEmpty();
        assertThat(r.result().get("name").asText()).isEqualTo("renamed");
    }

    @Test
    void standaloneRefusals() {
        JsonNode stored = json(STORED);
        UpdateResult noName = PolicyUpdates.standalone(stored, json("{'description':'x'}"));
        assertThat(noName.applied()).isFalse();
        assertThat(noName.result()).isEqualTo(stored);
        assertThat(noName.problems()).extracting(Problem::code, Problem::pointer).containsExactly(
                org.assertj.core.groups.Tuple.tuple("missing-key", "/name"));
        UpdateResult nullDescription = PolicyUpdates.standalone(stored, json("{'name':'p','description':null}"));
        assertThat(nullDescription.applied()).isFalse();
        assertThat(nullDescription.problems()).extracting(Problem::code).containsExactly("null-value");
        UpdateResult invalid = PolicyUpdates.standalone(stored,
                json("{'name':'p','allowedDomains':[{'pattern':'a.com','verdict':'deny','binaries':['/bin/x']}]}"));
        assertThat(invalid.applied()).isFalse();
        assertThat(invalid.problems()).extracting(Problem::pointer).containsExactly("/allowedDomains/0/binaries");
        assertThat(stored).isEqualTo(json(STORED));
        UpdateResult unknown = PolicyUpdates.standalone(stored, json("{'name':'p','colour':'red'}"));
        assertThat(unknown.problems()).extracting(Problem::code).containsExactly("unknown-key");
        assertThat(PolicyUpdates.standalone(null, json("[1]")).applied()).isFalse();
    }

    @Test
    void standaloneCreatesWhenNothingStored() {
        UpdateResult r = PolicyUpdates.standalone(null, json("{'name':'new'}"));
        assertThat(r.applied()).isTrue();
        assertThat(r.result()).isEqualTo(json("{'name':'new'}"));
    }

    @Test
    void embeddedMergesByTopLevelKey() {
        UpdateResult r = PolicyUpdates.embedded(json(STORED),
                json("{'policy':{'name':'p','env':{'B':'2'},'piiMasking':null}}"));
        assertThat(r.applied()).isTrue();
        assertThat(r.result().get("env")).isEqualTo(json("{'B':'2'}"));
        assertThat(r.result().has("piiMasking")).isFalse();
        assertThat(r.result().get("managedInference")).isEqualTo(json("{'enabled':true}"));
        assertThat(r.result().get("allowedDomains")).hasSize(1);
        UpdateResult clearInference = PolicyUpdates.embedded(json(STORED),
                json("{'policy':{'name':'p','managedInference':null,'allowedDomains':[]}}"));
        assertThat(clearInference.result().has("managedInference")).isFalse();
        assertThat(clearInference.result().get("allowedDomains")).isEmpty();
    }

    @Test
    void embeddedDropAndUntouched() {
        UpdateResult dropped = PolicyUpdates.embedded(json(STORED), json("{'policy':null}"));
        assertThat(dropped.applied()).isTrue();
        assertThat(dropped.result().isNull()).isTrue();
        UpdateResult untouched = PolicyUpdates.embedded(json(STORED), json("{}"));
        assertThat(untouched.applied()).isTrue();
        assertThat(untouched.result()).isEqualTo(json(STORED));
        UpdateResult nothing = PolicyUpdates.embedded(null, json("{}"));
        assertThat(nothing.applied()).isTrue();
        assertThat(nothing.result().isNull()).isTrue();
    }

    @Test
    void embeddedRefusals() {
        JsonNode stored = json(STORED);
        assertThat(PolicyUpdates.embedded(stored, json("{'policy':{'env':{}}}")).problems())
                .extracting(Problem::code).containsExactly("missing-key");
        assertThat(PolicyUpdates.embedded(stored, json("{'policy':{'name':'p','description':null}}")).problems())
                .extracting(Problem::code, Problem::pointer)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("null-value", "/description"));
        assertThat(PolicyUpdates.embedded(stored, json("{'policy':{'name':'p','env':null}}")).applied()).isFalse();
        UpdateResult unknownBody = PolicyUpdates.embedded(stored, json("{'policy':{'name':'p'},'polcy':{}}"));
        assertThat(unknownBody.applied()).isFalse();
        assertThat(unknownBody.result()).isEqualTo(stored);
        assertThat(unknownBody.problems()).extracting(Problem::pointer).containsExactly("/polcy");
        UpdateResult invalid = PolicyUpdates.embedded(stored,
                json("{'policy':{'name':'p','allowedDomains':[{'pattern':'a..com','verdict':'allow'}]}}"));
        assertThat(invalid.applied()).isFalse();
        assertThat(invalid.result()).isEqualTo(stored);
        assertThat(invalid.problems()).extracting(Problem::pointer).containsExactly("/allowedDomains/0/pattern");
        assertThat(PolicyUpdates.embedded(stored, json("{'policy':5}")).applied()).isFalse();
    }
}

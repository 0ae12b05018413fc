package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CredentialPlaceholderTest {
    private static final UUID ID = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    private static final String TEXT = "__platform_cred:123e4567-e89b-12d3-a456-426614174000__";

    @Test
    void aNamedCredentialGetsItsVersion3NameUuid() {
        UUID expected = UUID.nameUUIDFromBytes("github".getBytes(StandardCharsets.UTF_8));
        assertThat(expected.version()).isEqualTo(3);
        assertThat(CredentialPlaceholder.forName("github").text()).isEqualTo("__platform_cred:" + expected + "__");
    }

    @Test
    void parseTakesExactlyOnePlaceholder() {
        assertThat(CredentialPlaceholder.parse(TEXT)).contains(new CredentialPlaceholder(ID));
        assertThat(CredentialPlaceholder.parse(TEXT.toUpperCase().replace("__PLATFORM_CRED:", "__platform_cred:")))
                .contains(new CredentialPlaceholder(ID));
        assertThat(CredentialPlaceholder.parse("Bearer " + TEXT)).isEmpty();
        assertThat(CredentialPlaceholder.parse(TEXT + "x")).isEmpty();
        assertThat(CredentialPlaceholder.parse("__platform_cred:abc__")).isEmpty();
        assertThat(CredentialPlaceholder.parse("__platform_cred:1-2-3-4-5__")).isEmpty();
        assertThat(CredentialPlaceholder.parse(null)).isEmpty();
    }

    @Test
    void findInListsEveryPlaceholderWithItsBounds() {
        String other = "__platform_cred:00000000-0000-0000-0000-000000000001__";
        String text = "Bearer " + TEXT + " and " + other;
        List<CredentialPlaceholder.Occurrence> found = CredentialPlaceholder.findIn(text);
        assertThat(found).extracting(CredentialPlaceholder.Occurrence::placeholder)
                .containsExactly(new CredentialPlaceholder(ID),
                        new CredentialPlaceholder(UUID.fromString("00000000-0000-0000-0000-000000000001")));
        assertThat(text.substring(found.get(0).start(), found.get(0).end())).isEqualTo(TEXT);
        assertThat(found.get(1).end()).isEqualTo(text.length());
        assertThat(CredentialPlaceholder.findIn("no placeholder here")).isEmpty();
        assertThat(CredentialPlaceholder.mayOccurIn("no placeholder here")).isFalse();
    }

    @Test
    void aMalformedOccurrenceEndsTheScan() {
        List<CredentialPlaceholder.Occurrence> open = CredentialPlaceholder.findIn("x __platform_cred:" + ID);
        assertThat(open).singleElement().satisfies(o -> assertThat(o.malformed()).isTrue());
        List<CredentialPlaceholder.Occurrence> bad = CredentialPlaceholder.findIn("__platform_cred:nope__ " + TEXT);
        assertThat(bad).hasSize(1);
        assertThat(bad.get(0).malformed()).isTrue();
    }
}

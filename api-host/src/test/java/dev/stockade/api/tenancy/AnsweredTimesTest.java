package dev.stockade.api.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A time the platform answers is the time it stored (whole microseconds, as PostgreSQL keeps them), so a client that
 * sends it back, as a filter or a cursor, is not refused for being finer than the platform stores.
 */
@MicronautTest(transactional = false)
class AnsweredTimesTest extends PlatformTest {
    @Test
    void aCreatedProjectsTimeIsTheStoredOneAndIsAcceptedBack() {
        String owner = ownerToken();
        String org = createOrg(owner, "answered-times");
        var created = http.post("/v1/orgs/" + org + "/projects", owner, Map.of("name", "times"));
        assertThat(created.status()).isEqualTo(201);
        Instant answered = Instant.parse(created.text("createdAt"));
        assertThat(answered.getNano() % 1_000).as("nanoseconds below a microsecond").isZero();

        var read = http.get("/v1/projects/" + created.text("id"), owner);
        assertThat(Instant.parse(read.text("createdAt"))).isEqualTo(answered);
        var filtered = http.get("/v1/orgs/" + org + "/audit-trail?from=" + answered, owner);
        assertThat(filtered.status()).as(filtered.raw()).isEqualTo(200);
    }
}

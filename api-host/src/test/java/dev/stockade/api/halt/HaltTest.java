package dev.stockade.api.halt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.TestDatabase;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** The halt: persisted, audited, readable by members, set by admins, and signalled to every replica. */
@MicronautTest(transactional = false)
class HaltTest extends PlatformTest {

    @Test
    void haltingIsPersistedAuditedAndNotifiedThroughTheDatabase() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "halting");
        String url = server.getApplicationContext().getProperty("datasources.default.url", String.class).orElseThrow();
        try (Connection listener = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password())) {
            listener.createStatement().execute("LISTEN stockade_events");
            assertThat(http.get("/v1/orgs/" + org + "/halt", owner).body().path("halted").asBoolean()).isFalse();

            Http.Response halted = http.post("/v1/orgs/" + org + "/halt", owner, null);
            assertThat(halted.status()).isEqualTo(200);
            assertThat(halted.body().path("halted").asBoolean()).isTrue();
            assertThat(halted.text("haltedAt")).isNotEmpty();

            PGNotification[] notes = listener.unwrap(PGConnection.class).getNotifications(10_000);
            assertThat(notes).isNotNull().isNotEmpty();
            ResultSet rs = listener.createStatement().executeQuery("SELECT topic, org_id::text, payload->>'halted'"
                    + " FROM events WHERE id = " + notes[0].getParameter());
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("halt");
            assertThat(rs.getString(2)).isEqualTo(org);
            assertThat(rs.getString(3)).isEqualTo("true");
        }
        assertThat(http.get("/v1/orgs/" + org + "/halt", owner).body().path("halted").asBoolean()).isTrue();
        assertThat(http.delete("/v1/orgs/" + org + "/halt", owner).body().path("halted").asBoolean()).isFalse();
        Http.Response trail = http.get("/v1/orgs/" + org + "/audit-trail?kind=halt", owner);
        assertThat(trail.body().path("items")).hasSize(2);
        assertThat(trail.body().path("items").get(0).path("action").asText()).isEqualTo("lift");
        assertThat(trail.body().path("items").get(1).path("action").asText()).isEqualTo("halt");
        // an API token of the organization reads the halt but may not lift it
        String token = createApiToken(owner, org, "reader");
        assertThat(http.get("/v1/orgs/" + org + "/halt", token).status()).isEqualTo(200);
        assertThat(problem(http.delete("/v1/orgs/" + org + "/halt", token), 403)).isEqualTo("forbidden");
    }
}

package dev.stockade.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.TestDatabase;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Cursor pagination of the audit trail: ties broken by id, nothing skipped or repeated; filters; stats. */
@MicronautTest(transactional = false)
class AuditTrailTest extends PlatformTest {

    private void insert(String org, int count, String at, boolean read) throws Exception {
        String url = server.getApplicationContext().getProperty("datasources.default.url", String.class).orElseThrow();
        try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password())) {
            c.createStatement().executeUpdate("INSERT INTO audit_entries (org_id, at, kind, action, is_read, outcome,"
                    + " actor_type, actor_id, target) SELECT '" + org + "', '" + at + "', 'egress', 'request', " + read
                    + ", 'allow', 'sandbox-token', 'x', 'api.github.com/' || g FROM generate_series(1, " + count + ") g");
        }
    }

    @Test
    void pagesNeitherSkipNorRepeatEntriesThatShareATimestamp() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "paging");
        insert(org, 7, "2026-01-01T00:00:00.000001Z", false);
        insert(org, 5, "2026-01-01T00:00:00.000002Z", true);
        insert(org, 4, "2025-12-31T23:59:59Z", false);
        int total = http.get("/v1/orgs/" + org + "/audit-trail/stats", owner).body().path("total").asInt();
        assertThat(total).isEqualTo(17); // 16 inserted and the organization's creation

        List<Long> seen = new ArrayList<>();
        String query = "";
        int pages = 0;
        while (true) {
            Http.Response page = http.get("/v1/orgs/" + org + "/audit-trail?limit=3" + query, owner);
            assertThat(page.status()).as(page.raw()).isEqualTo(200);
            page.body().path("items").forEach(e -> seen.add(e.path("id").asLong()));
            pages++;
            if (page.body().path("nextCursor").isNull()) {
                break;
            }
            query = "&cursor=" + page.text("nextCursor") + "&cursorId=" + page.text("nextCursorId");
        }
        assertThat(pages).isEqualTo(6);
        assertThat(seen).hasSize(17).doesNotHaveDuplicates();
        Set<Long> unique = new HashSet<>(seen);
        assertThat(unique).hasSize(17);

        Http.Response writesOnly = http.get("/v1/orgs/" + org + "/audit-trail?limit=500&excludeReads=true", owner);
        assertThat(writesOnly.body().path("items")).hasSize(12);
        writesOnly.body().path("items").forEach(e -> assertThat(e.path("read").asBoolean()).isFalse());

        Http.Response stats = http.get("/v1/orgs/" + org + "/audit-trail/stats?from=2026-01-01T00:00:00Z", owner);
        assertThat(stats.body().path("byKind").path("egress").asInt()).isEqualTo(12);
        Http.Response series = http.get("/v1/orgs/" + org + "/audit-trail/timeseries?interval=day&kind=egress", owner);
        assertThat(series.body().path("buckets")).hasSize(2);
    }

    @Test
    void badQueriesAreProblems() {
        String owner = ownerToken();
        String org = createOrg(owner, "bad-queries");
        for (String q : new String[] {"limit=0", "limit=501", "cursor=yesterday", "excludeReads=yes", "bogus=1",
                "limit=1&limit=2", "projectId=../x", "cursorId=abc"}) {
            assertThat(problem(http.get("/v1/orgs/" + org + "/audit-trail?" + q, owner), 400)).as(q)
                    .isEqualTo("invalid_parameter");
        }
        assertThat(problem(http.get("/v1/orgs/" + org + "/audit-trail/timeseries?interval=week", owner), 400))
                .isEqualTo("invalid_parameter");
    }
}

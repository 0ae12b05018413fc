package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.compiler.SpendDecision;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.model.Provider;
import io.micronaut.context.ApplicationContext;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The ledger's write and the admission verdict over it, across organization, project and sandbox limits. */
@MicronautTest(transactional = false)
class SpendAdmissionTest extends SpendPlatformTest {
    @Inject
    SpendAdmission admission;
    @Inject
    SpendingLimits limits;
    @Inject
    ApplicationContext context;

    private UUID id(String s) {
        return UUID.fromString(s);
    }

    private List<String> reached(String org, String project, String sandbox, Instant at) {
        return admission.check(id(org), id(project), sandbox == null ? null : id(sandbox), at).reached().stream()
                .map(LimitState::scope).toList();
    }

    @Test
    void aRecordedCallIsCommittedBeforeRecordReturns() throws Exception {
        String org = world.org();
        String project = world.project(org, "p");
        Instant at = Instant.parse("2026-05-04T10:15:30Z");
        long id = ledger.record(SpendWorld.usage(org, project, null, Provider.LITELLM, 1_250_000L, true, at));
        // a connection of its own, outside the platform's pool: only committed rows are visible to it
        try (Connection c = DriverManager.getConnection(context.getProperty("datasources.default.url", String.class)
                .orElseThrow(), context.getProperty("datasources.default.username", String.class).orElse(""),
                context.getProperty("datasources.default.password", String.class).orElse(""));
             PreparedStatement ps = c.prepareStatement("SELECT org_id, project_id, sandbox_id, provider, model,"
                     + " input_tokens, output_tokens, cost_micros, metered, occurred_at FROM usage_ledger"
                     + " WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1, UUID.class)).isEqualTo(id(org));
                assertThat(rs.getObject(2, UUID.class)).isEqualTo(id(project));
                assertThat(rs.getObject(3)).isNull();
                assertThat(rs.getString(4)).isEqualTo("litellm");
                assertThat(rs.getString(5)).isEqualTo("claude-sonnet");
                assertThat(rs.getLong(6)).isEqualTo(1000);
                assertThat(rs.getLong(7)).isEqualTo(200);
                assertThat(rs.getLong(8)).isEqualTo(1_250_000L);
                assertThat(rs.getBoolean(9)).isTrue();
                assertThat(rs.getTimestamp(10).toInstant()).isEqualTo(at);
            }
        }
        assertThat(limits.counted("org", id(org), SpendPeriod.MONTH, at)).isEqualTo(1_250_000L);
        assertThat(limits.counted("project", id(project), SpendPeriod.DAY, at)).isEqualTo(1_250_000L);
    }

    @Test
    void theLedgerRefusesAProjectOfAnotherOrganizationAndWritesNothing() {
        String org = world.org();
        String foreign = world.project(world.org(), "elsewhere");
        assertThatThrownBy(() -> ledger.record(SpendWorld.usage(org, foreign, null, Provider.OPENAI, 1L, true, null)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(limits.counted("org", id(org), SpendPeriod.MONTH, Instant.now())).isZero();
        assertThatThrownBy(() -> SpendWorld.usage(org, foreign, null, Provider.OPENAI, -1L, true, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyMeteredPricedSpendCountsTowardLimits() {
        String org = world.org();
        String project = world.project(org, "p");
        Instant at = Instant.parse("2026-06-10T12:00:00Z");
        limits.set(new dev.stockade.api.kernel.identity.Identity.Owner(UUID.randomUUID()), id(org), LimitTarget.org(),
                SpendWorld.micros("1"), SpendPeriod.MONTH);
        ledger.record(SpendWorld.usage(org, project, null, Provider.LITELLM, null, true, at)); // no reported cost
        ledger.record(SpendWorld.usage(org, project, null, Provider.AZURE, null, true, at)); // no price
        ledger.record(SpendWorld.usage(org, project, null, Provider.OPENAI, SpendWorld.micros("5"), false, at));
        assertThat(reached(org, project, null, at)).isEmpty();
        assertThat(limits.counted("org", id(org), SpendPeriod.MONTH, at)).isZero();
        world.spend(org, project, null, "0.999999", at);
        assertThat(reached(org, project, null, at)).isEmpty();
        world.spend(org, project, null, "0.000001", at);
        assertThat(reached(org, project, null, at)).containsExactly("org"); // reaching the limit stops
    }

    @Test
    void everyApplicableLimitCountsAndTheRefusalNamesWhichWasReached() {
        String org = world.org();
        String p1 = world.project(org, "p1");
        String p2 = world.project(org, "p2");
        String a = world.sandbox(p1, "a");
        String b = world.sandbox(p1, "b");
        String c = world.sandbox(p2, "c");
        String owner = ownerToken();
        assertThat(world.limit(org, "/org", "10", null, owner).status()).isEqualTo(200);
        assertThat(world.limit(org, "/projects/" + p1, "5", null, owner).status()).isEqualTo(200);
        assertThat(world.limit(org, "/projects/" + p1 + "/sandboxes/" + a, "1", null, owner).status()).isEqualTo(200);
        Instant now = Instant.now();
        assertThat(admission.check(id(org), id(p1), id(a), now).applicable()).extracting(LimitState::scope)
                .containsExactly("org", "project", "sandbox");
        assertThat(admission.check(id(org), id(p2), id(c), now).applicable()).extracting(LimitState::scope)
                .containsExactly("org");

        world.spend(org, p1, a, "1", now);
        assertThat(reached(org, p1, a, now)).containsExactly("sandbox");
        assertThat(reached(org, p1, b, now)).isEmpty();
        assertThat(admission.check(id(org), id(p1), id(b), now).reason()).isEqualTo(SpendDecision.Reason.WITHIN_LIMITS);
        world.spend(org, p1, b, "4", now);
        assertThat(reached(org, p1, b, now)).containsExactly("project");
        assertThat(reached(org, p1, null, now)).containsExactly("project"); // a caller that is not a sandbox
        assertThat(reached(org, p1, a, now)).containsExactly("project", "sandbox");
        assertThat(reached(org, p2, c, now)).isEmpty();
        world.spend(org, p2, c, "5", now);
        assertThat(reached(org, p2, c, now)).containsExactly("org");
        assertThat(admission.check(id(org), id(p2), id(c), now).allowed()).isFalse();
        assertThat(admission.check(id(org), id(p2), id(c), now).reason()).isEqualTo(SpendDecision.Reason.LIMIT_REACHED);

        assertThat(http.delete("/v1/orgs/" + org + "/spending-limits/org", owner).status()).isEqualTo(204);
        assertThat(admission.check(id(org), id(p2), id(c), now).allowed()).isTrue();
        // the organization's was the only limit of that project and sandbox
        assertThat(admission.check(id(org), id(p2), id(c), now).reason()).isEqualTo(SpendDecision.Reason.NO_LIMIT);
    }

    @Test
    void aMonthLimitCountsTheCalendarMonthInUtcAndADayLimitTheCalendarDay() {
        String org = world.org();
        String project = world.project(org, "p");
        String sandbox = world.sandbox(project, "s");
        String owner = ownerToken();
        world.limit(org, "/projects/" + project, "1", "month", owner);
        world.limit(org, "/projects/" + project + "/sandboxes/" + sandbox, "2", "day", owner);
        Instant lastInstantOfMarch = Instant.parse("2026-03-31T23:59:59.999999Z");
        Instant firstOfApril = Instant.parse("2026-04-01T00:00:00Z");
        world.spend(org, project, sandbox, "1", lastInstantOfMarch);
        assertThat(reached(org, project, sandbox, lastInstantOfMarch)).containsExactly("project");
        assertThat(reached(org, project, sandbox, firstOfApril)).isEmpty(); // a new month, a new day
        world.spend(org, project, sandbox, "1", firstOfApril); // exactly at midnight: April's, not March's
        assertThat(reached(org, project, sandbox, firstOfApril)).containsExactly("project");
        assertThat(limits.counted("project", id(project), SpendPeriod.MONTH, lastInstantOfMarch))
                .isEqualTo(SpendWorld.micros("1"));
        world.spend(org, project, sandbox, "1", firstOfApril.plusSeconds(3600));
        assertThat(reached(org, project, sandbox, firstOfApril.plusSeconds(7200)))
                .containsExactly("project", "sandbox");
        Instant secondOfApril = Instant.parse("2026-04-02T00:00:00Z");
        assertThat(reached(org, project, sandbox, secondOfApril)).containsExactly("project");
    }

    @Test
    void aZeroLimitAllowsNoMeteredCallAtAll() {
        String org = world.org();
        String project = world.project(org, "p");
        world.limit(org, "/projects/" + project, "0", null, ownerToken());
        assertThat(reached(org, project, null, Instant.now())).containsExactly("project");
        assertThat(SpendAdmission.judge(List.of()).allowed()).isTrue();
        assertThat(SpendAdmission.judge(List.of()).reason()).isEqualTo(SpendDecision.Reason.NO_LIMIT);
        SpendAdmission.judge(List.of()).require(); // allowed: no refusal
        assertThatThrownBy(() -> admission.check(id(org), id(project), null).require())
                .isInstanceOfSatisfying(ApiProblem.class, p -> {
                    assertThat(p.code()).isEqualTo(ProblemCode.SPENDING_LIMIT_REACHED);
                    assertThat(p.code().status().getCode()).isEqualTo(429);
                    assertThat(p.detail()).contains("the project's monthly limit of 0.000000 USD");
                });
    }

    @Test
    void deletingAProjectKeepsItsSpendInTheOrganizationsLimitAndUsage() {
        String org = world.org();
        String gone = world.project(org, "gone");
        String stays = world.project(org, "stays");
        String owner = ownerToken();
        world.limit(org, "/org", "2", null, owner);
        world.limit(org, "/projects/" + gone, "5", null, owner);
        Instant now = Instant.now();
        world.spend(org, gone, null, "2", now);
        assertThat(http.delete("/v1/projects/" + gone, owner).status()).isEqualTo(204);
        assertThat(reached(org, stays, null, now)).containsExactly("org");
        assertThat(http.get("/v1/orgs/" + org + "/spending-limits", owner).body().path("items")).hasSize(1);
        var usage = http.get("/v1/orgs/" + org + "/usage-costs?groupBy=project", owner).body();
        assertThat(usage.path("groups").get(0).path("projectId").asText()).isEqualTo(gone);
        assertThat(usage.path("total").path("costUsd").asText()).isEqualTo("2.000000");
    }
}

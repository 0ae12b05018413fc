package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.compiler.SpendScope;
import dev.stockade.policy.model.Provider;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Reserve, settle and release one call at a time: the fit rule, the refusal, and what settling writes. */
@MicronautTest(transactional = false)
class SpendReservationsTest extends SpendPlatformTest {
    @Inject
    SpendReservations reservations;
    @Inject
    SpendingLimits limits;

    private static UUID id(String s) {
        return s == null ? null : UUID.fromString(s);
    }

    private Reservation.Result reserve(String org, String project, String sandbox, String usd) {
        return reservations.reserve(id(org), id(project), id(sandbox), SpendWorld.micros(usd));
    }

    private static Reservation held(Reservation.Result r) {
        assertThat(r).isInstanceOf(Reservation.Reserved.class);
        return r.require();
    }

    private static Reservation.Refused refused(Reservation.Result r) {
        assertThat(r).isInstanceOf(Reservation.Refused.class);
        return (Reservation.Refused) r;
    }

    private long held(SpendScope scope, String target) {
        return reservations.heldMicros(scope, id(target), Instant.now());
    }

    @Test
    void aCallFitsWhileSpentPlusHeldPlusItsCostStaysWithinTheLimit() {
        String org = world.org();
        String project = world.project(org, "p");
        world.limit(org, "/org", "1", null, ownerToken());
        world.spend(org, project, null, "0.1", null);
        Reservation first = held(reserve(org, project, null, "0.4"));
        held(reserve(org, project, null, "0.3"));
        assertThat(held(SpendScope.ORGANIZATION, org)).isEqualTo(SpendWorld.micros("0.7"));

        Reservation.Refused over = refused(reserve(org, project, null, "0.200001"));
        assertThat(over.reached()).extracting(l -> l.limit().scope()).containsExactly("org");
        assertThat(over.reached().get(0).heldMicros()).isEqualTo(SpendWorld.micros("0.7"));
        // the calendar month in UTC, computed here rather than by the code under test
        Instant monthEnd = ZonedDateTime.now(ZoneOffset.UTC).withDayOfMonth(1).toLocalDate().plusMonths(1)
                .atStartOfDay(ZoneOffset.UTC).toInstant();
        assertThat(over.detail()).isEqualTo("spending limit reached: a call that may cost 0.200001 USD does not fit"
                + " the organization's monthly limit of 1.000000 USD (spent 0.100000 USD, held 0.700000 USD by calls"
                + " in flight; the period ends " + monthEnd + "); model access stops until calls in flight finish or"
                + " the period ends, the sandbox keeps running");
        assertThatThrownBy(over::require).isInstanceOfSatisfying(ApiProblem.class, p -> {
            assertThat(p.code()).isEqualTo(ProblemCode.SPENDING_LIMIT_REACHED);
            assertThat(p.code().status().getCode()).isEqualTo(429);
            assertThat(p.detail()).isEqualTo(over.detail());
        });
        assertThat(held(SpendScope.ORGANIZATION, org)).as("a refusal holds nothing").isEqualTo(SpendWorld.micros("0.7"));

        held(reserve(org, project, null, "0.2")); // exactly the remainder: spent + held + cost == limit
        refused(reserve(org, project, null, "0.000001"));
        reservations.release(first);
        reservations.release(first); // releasing twice is harmless
        assertThat(held(SpendScope.ORGANIZATION, org)).isEqualTo(SpendWorld.micros("0.5"));
        held(reserve(org, project, null, "0.4"));
        refused(reserve(org, project, null, "0.000001"));
    }

    @Test
    void everyLimitThatAppliesCountsAndTheRefusalNamesEachOneReached() {
        String org = world.org();
        String p1 = world.project(org, "p1");
        String p2 = world.project(org, "p2");
        String a = world.sandbox(p1, "a");
        String b = world.sandbox(p1, "b");
        String owner = ownerToken();
        world.limit(org, "/org", "10", null, owner);
        world.limit(org, "/projects/" + p1, "2", "day", owner);
        world.limit(org, "/projects/" + p1 + "/sandboxes/" + a, "1", null, owner);

        assertThat(refused(reserve(org, p1, a, "1.5")).reached()).extracting(l -> l.limit().scope())
                .containsExactly("sandbox");
        held(reserve(org, p1, a, "1"));
        held(reserve(org, p1, null, "0.5")); // a caller that is not a sandbox counts toward the project
        assertThat(refused(reserve(org, p1, b, "0.6")).reached()).extracting(l -> l.limit().scope())
                .containsExactly("project");
        Reservation.Refused both = refused(reserve(org, p1, a, "0.6"));
        assertThat(both.reached()).extracting(l -> l.limit().scope()).containsExactly("project", "sandbox");
        assertThat(both.detail()).contains("the project's daily limit of 2.000000 USD (spent 0.000000 USD, held"
                + " 1.500000 USD", "the sandbox's monthly limit of 1.000000 USD (spent 0.000000 USD, held 1.000000 USD");
        held(reserve(org, p1, b, "0.5")); // the project's last half
        held(reserve(org, p2, null, "7")); // another project: only the organization's limit applies
        assertThat(refused(reserve(org, p2, null, "1.000001")).reached()).extracting(l -> l.limit().scope())
                .containsExactly("org");
        assertThat(held(SpendScope.PROJECT, p1)).isEqualTo(SpendWorld.micros("2"));
        assertThat(held(SpendScope.SANDBOX, a)).isEqualTo(SpendWorld.micros("1"));
    }

    @Test
    void aCallerWithNoLimitOrACallOfNoCostIsReservedAndSettlesLikeAnyOther() {
        String org = world.org();
        String project = world.project(org, "p");
        String sandbox = world.sandbox(project, "s");
        Reservation free = held(reserve(org, project, sandbox, "50"));
        assertThat(held(SpendScope.SANDBOX, sandbox)).as("a hold with no limit still counts once a limit is set")
                .isEqualTo(SpendWorld.micros("50"));
        world.limit(org, "/projects/" + project, "60", null, ownerToken());
        Reservation ten = held(reserve(org, project, sandbox, "10"));
        refused(reserve(org, project, sandbox, "0.000001")); // the hold made under no limit counts against it
        Reservation unpriced = held(reserve(org, project, sandbox, "0")); // a reached limit does not stop it
        assertThat(unpriced.heldMicros()).isZero();
        long ledgerId = reservations.settle(unpriced, SpendWorld.usage(org, project, sandbox, Provider.AZURE, null,
                true, null));
        assertThat(ledgerId).isPositive();
        reservations.settle(free, SpendWorld.usage(org, project, sandbox, Provider.OPENAI, SpendWorld.micros("3"),
                true, null));
        assertThat(held(SpendScope.SANDBOX, sandbox)).isEqualTo(ten.heldMicros());
        assertThat(limits.counted("project", id(project), SpendPeriod.MONTH, Instant.now()))
                .isEqualTo(SpendWorld.micros("3"));
        // 3 spent + 10 held of 60: the 47 that settling freed fit again, one micro-USD more does not
        refused(reserve(org, project, sandbox, "47.000001"));
        held(reserve(org, project, sandbox, "47"));
    }

    @Test
    void settlingRecordsTheMeteredCostEvenAboveTheHoldAndOnlyOnce() {
        String org = world.org();
        String project = world.project(org, "p");
        world.limit(org, "/org", "1", null, ownerToken());
        Reservation r = held(reserve(org, project, null, "0.1"));
        UsageLedger.Usage usage = SpendWorld.usage(org, project, null, Provider.BEDROCK, SpendWorld.micros("0.5"),
                true, null);
        long ledgerId = reservations.settle(r, usage);
        assertThat(ledgerId).isPositive();
        assertThat(limits.counted("org", id(org), SpendPeriod.MONTH, Instant.now()))
                .isEqualTo(SpendWorld.micros("0.5"));
        assertThat(held(SpendScope.ORGANIZATION, org)).isZero();

        assertThatThrownBy(() -> reservations.settle(r, usage)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not held");
        assertThat(limits.counted("org", id(org), SpendPeriod.MONTH, Instant.now()))
                .as("a second settlement writes nothing").isEqualTo(SpendWorld.micros("0.5"));
        reservations.release(r); // after settling: nothing left to release, harmless
        Reservation released = held(reserve(org, project, null, "0.5"));
        reservations.release(released);
        assertThatThrownBy(() -> reservations.settle(released, usage)).isInstanceOf(IllegalStateException.class);
        assertThat(limits.counted("org", id(org), SpendPeriod.MONTH, Instant.now()))
                .isEqualTo(SpendWorld.micros("0.5"));
    }

    @Test
    void aSettlementTheLedgerRefusesKeepsTheHold() {
        String org = world.org();
        String project = world.project(org, "p");
        Reservation r = held(reserve(org, project, null, "0.3"));
        UsageLedger.Usage elsewhere = SpendWorld.usage(org, project, UUID.randomUUID().toString(), Provider.OPENAI,
                1L, true, null);
        assertThatThrownBy(() -> reservations.settle(r, elsewhere)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another caller");
        // the ledger refuses a project that is gone: the hold's removal is rolled back with the ledger row
        assertThat(http.delete("/v1/projects/" + project, ownerToken()).status()).isEqualTo(204);
        assertThatThrownBy(() -> reservations.settle(r, SpendWorld.usage(org, project, null, Provider.OPENAI, 1L,
                true, null))).isInstanceOf(IllegalArgumentException.class);
        assertThat(held(SpendScope.ORGANIZATION, org)).isEqualTo(SpendWorld.micros("0.3"));
        assertThat(limits.counted("org", id(org), SpendPeriod.MONTH, Instant.now())).isZero();
    }

    @Test
    void theLimitStatusShowsWhatCallsInFlightHold() {
        String org = world.org();
        String project = world.project(org, "p");
        String sandbox = world.sandbox(project, "s");
        String owner = ownerToken();
        world.limit(org, "/org", "10", null, owner);
        world.limit(org, "/projects/" + project, "5", null, owner);
        world.limit(org, "/projects/" + project + "/sandboxes/" + sandbox, "2", null, owner);
        world.spend(org, project, sandbox, "0.5", null);
        held(reserve(org, project, sandbox, "1.25"));
        held(reserve(org, project, null, "0.75"));
        reservations.release(held(reserve(org, world.project(org, "q"), null, "3"))); // released: not shown
        var items = http.get("/v1/orgs/" + org + "/spending-limits/status", owner).body().path("items");
        assertThat(items).hasSize(3);
        assertThat(items.get(0).path("heldUsd").asText()).isEqualTo("2.000000");
        assertThat(items.get(1).path("heldUsd").asText()).isEqualTo("2.000000");
        assertThat(items.get(2).path("heldUsd").asText()).isEqualTo("1.250000");
        // what is held is not spent: remaining counts only settled spend
        assertThat(items.get(2).path("remainingUsd").asText()).isEqualTo("1.500000");
        var cap = http.get("/v1/orgs/" + org + "/spending-limits/projects/" + project + "/sandboxes/" + sandbox,
                owner).body();
        assertThat(cap.path("heldUsd").asText()).isEqualTo("1.250000");
        assertThat(cap.path("spentUsd").asText()).isEqualTo("0.500000");
    }

    @Test
    void aBadReservationIsRefusedWithAClearErrorAndHoldsNothing() {
        String org = world.org();
        String project = world.project(org, "p");
        String foreign = world.project(world.org(), "elsewhere");
        String other = world.sandbox(world.project(org, "q"), "other");
        assertThatThrownBy(() -> reservations.reserve(id(org), id(project), null, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cost must be 0 to");
        assertThatThrownBy(() -> reservations.reserve(id(org), id(project), null, Money.MAX_MICROS + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reserve(org, foreign, null, "1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("project " + foreign + " is not a project of " + org);
        assertThatThrownBy(() -> reserve(org, project, other, "1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sandbox " + other + " is not a sandbox of project " + project);
        assertThat(held(SpendScope.ORGANIZATION, org)).isZero();
    }

    @Test
    void aHaltedOrganizationHoldsNothingAndItsHaltAnswersBeforeItsBudget() {
        String org = world.org();
        String project = world.project(org, "p");
        assertThat(http.post("/v1/orgs/" + org + "/halt", ownerToken(), null).status()).isEqualTo(200);
        for (String usd : new String[] {"0.4", "0"}) { // priced (the limits are locked first) and unpriced
            Reservation.Result r = reserve(org, project, null, usd);
            assertThat(r).isEqualTo(new Reservation.Halted(id(org)));
            assertThatThrownBy(r::require).isInstanceOfSatisfying(ApiProblem.class,
                    p -> assertThat(p.code().status().getCode()).isEqualTo(403));
        }
        world.limit(org, "/org", "1", null, ownerToken());
        assertThat(reserve(org, project, null, "2")).as("over the limit too: the halt is the answer")
                .isInstanceOf(Reservation.Halted.class);
        assertThat(held(SpendScope.ORGANIZATION, org)).isZero();

        http.delete("/v1/orgs/" + org + "/halt", ownerToken());
        held(reserve(org, project, null, "0.4"));
        assertThat(held(SpendScope.ORGANIZATION, org)).isEqualTo(SpendWorld.micros("0.4"));
    }
}

package dev.stockade.policy.compiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.stockade.policy.compiler.ReservationFit.Reason;
import dev.stockade.policy.compiler.ReservationFit.Shortfall;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;

/**
 * The reservation fit rule: spend + holds + cost must not exceed the amount of every limit; expected values are worked
 * out by hand in each test, and a property checks the rule against exact (BigInteger) arithmetic.
 */
class ReservationFitTest {
    private static final Instant NOW = Instant.parse("2026-03-14T10:00:00Z");
    private static final long MAX = Long.MAX_VALUE;

    private static HeldSpend held(SpendScope scope, long amount, long spent, long held) {
        return new HeldSpend(new SpendLimit(scope, SpendPeriod.DAY, amount, spent, SpendPeriod.DAY.start(NOW)), held);
    }

    private static ReservationFit judge(long cost, HeldSpend... limits) {
        return ReservationFit.judge(new ReservationRequest(cost, List.of(limits)));
    }

    @Test
    void anUnpricedCallFitsWithoutJudgingLimitsEvenAZeroOrExceededOne() {
        ReservationFit fit = judge(0, held(SpendScope.ORGANIZATION, 0, 0, 0), held(SpendScope.PROJECT, 10, 50, 5));
        assertThat(fit.fits()).isTrue();
        assertThat(fit.reason()).isEqualTo(Reason.UNPRICED);
        assertThat(fit.refused()).isEmpty();
        assertThat(ReservationFit.dependsOnLimits(0)).isFalse();
        assertThat(ReservationFit.dependsOnLimits(1)).isTrue();
    }

    @Test
    void aPricedCallUnderNoLimitFits() {
        ReservationFit fit = judge(5_000_000);
        assertThat(fit.fits()).isTrue();
        assertThat(fit.reason()).isEqualTo(Reason.NO_LIMIT);
    }

    @Test
    void aReservationMayTakeTheBudgetToTheLastMicroUsd() {
        // 4 spent + 3 held + 3 cost = 10 = the amount: fits; one micro more is over by 1
        assertThat(judge(3, held(SpendScope.PROJECT, 10, 4, 3)).reason()).isEqualTo(Reason.WITHIN_LIMITS);
        HeldSpend project = held(SpendScope.PROJECT, 10, 4, 3);
        ReservationFit over = judge(4, project);
        assertThat(over.fits()).isFalse();
        assertThat(over.reason()).isEqualTo(Reason.DOES_NOT_FIT);
        assertThat(over.refused()).containsExactly(new Shortfall(project, 1));
    }

    @Test
    void holdsOfCallsInFlightCountAsIfSpent() {
        // nothing spent, 100 held of 100: a one-micro call is over by 1; with no holds it fits
        assertThat(judge(1, held(SpendScope.SANDBOX, 100, 0, 100)).refused())
                .extracting(Shortfall::overMicros).containsExactly(1L);
        assertThat(judge(1, held(SpendScope.SANDBOX, 100, 0, 0)).fits()).isTrue();
    }

    @Test
    void aLimitAlreadyExceededRefusesByTheWholeExcess() {
        // 12 spent of 10, a call of 1: 13 − 10 = 3 over
        assertThat(judge(1, held(SpendScope.ORGANIZATION, 10, 12, 0)).refused())
                .extracting(Shortfall::overMicros).containsExactly(3L);
    }

    @Test
    void aZeroLimitAdmitsNoPricedCall() {
        assertThat(judge(1, held(SpendScope.SANDBOX, 0, 0, 0)).refused())
                .extracting(Shortfall::overMicros).containsExactly(1L);
    }

    @Test
    void everyLimitCountsAndEachRefusalIsNamedInOrder() {
        HeldSpend org = held(SpendScope.ORGANIZATION, 100, 60, 30);   // 60 + 30 + 20 = 110: over by 10
        HeldSpend project = held(SpendScope.PROJECT, 500, 60, 30);    // 110 of 500: fits
        HeldSpend sandbox = held(SpendScope.SANDBOX, 45, 40, 0);      // 40 + 0 + 20 = 60: over by 15
        ReservationFit fit = judge(20, org, project, sandbox);
        assertThat(fit.fits()).isFalse();
        assertThat(fit.refused()).containsExactly(new Shortfall(org, 10), new Shortfall(sandbox, 15));
    }

    @Test
    void sumsBeyondALongRefuseRatherThanWrapIntoRoom() {
        // (MAX − 1) + 1 + 1 wraps to a negative long in plain arithmetic, which would fit any amount; it is MAX + 1,
        // over an amount of MAX by exactly 1
        ReservationFit wrapped = judge(1, held(SpendScope.ORGANIZATION, MAX, MAX - 1, 1));
        assertThat(wrapped.fits()).isFalse();
        assertThat(wrapped.refused()).extracting(Shortfall::overMicros).containsExactly(1L);
        // (MAX − 2) + 1 + 1 = MAX exactly: fits an amount of MAX
        assertThat(judge(1, held(SpendScope.ORGANIZATION, MAX, MAX - 2, 1)).fits()).isTrue();
        // 3 × MAX over an amount of 0: an excess a long cannot count is reported as MAX
        assertThat(judge(MAX, held(SpendScope.PROJECT, 0, MAX, MAX)).refused())
                .extracting(Shortfall::overMicros).containsExactly(MAX);
    }

    @Test
    void badInputIsRefusedWithAClearError() {
        assertThatThrownBy(() -> new ReservationRequest(-1, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cost must not be negative");
        assertThatThrownBy(() -> held(SpendScope.PROJECT, 10, 0, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("held amount");
        assertThatThrownBy(() -> held(SpendScope.PROJECT, 10, -5, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> held(SpendScope.PROJECT, -10, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> new ReservationRequest(1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ReservationFit.judge(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aOneMicroCallWithoutHoldsFitsExactlyWhenTheAdmissionCheckAllows() {
        for (long spent : new long[] {0, 9, 10, 11}) {
            HeldSpend limit = held(SpendScope.PROJECT, 10, spent, 0);
            assertThat(judge(1, limit).fits()).as("spent %d of 10", spent)
                    .isEqualTo(SpendDecision.judge(List.of(limit.limit())).allowed());
        }
    }

    @Test
    void theRuleAgreesWithExactArithmeticOnAnyAmounts() {
        QuickTheory.qt().withFixedSeed(31L).withExamples(2_000)
                .forAll(longs().between(0, MAX), longs().between(0, MAX), longs().between(0, MAX),
                        longs().between(1, MAX))
                .checkAssert((amount, spent, heldMicros, cost) -> agreesWithExactArithmetic(amount, spent, heldMicros,
                        cost));
        QuickTheory.qt().withFixedSeed(32L).withExamples(2_000)
                .forAll(longs().between(0, 20), longs().between(0, 20), longs().between(0, 20), longs().between(1, 20))
                .checkAssert(ReservationFitTest::agreesWithExactArithmetic);
    }

    private static void agreesWithExactArithmetic(long amount, long spent, long heldMicros, long cost) {
        BigInteger over = BigInteger.valueOf(spent).add(BigInteger.valueOf(heldMicros)).add(BigInteger.valueOf(cost))
                .subtract(BigInteger.valueOf(amount));
        ReservationFit fit = judge(cost, held(SpendScope.ORGANIZATION, amount, spent, heldMicros));
        assertThat(fit.fits()).isEqualTo(over.signum() <= 0);
        if (over.signum() > 0) {
            assertThat(fit.refused().get(0).overMicros()).isEqualTo(over.min(BigInteger.valueOf(MAX)).longValueExact());
        }
    }
}

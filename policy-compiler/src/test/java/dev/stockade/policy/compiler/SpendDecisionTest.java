package dev.stockade.policy.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The spend admission judgement: every applicable limit counts, spend equal to the cap is reached. */
class SpendDecisionTest {
    private static final Instant DAY = Instant.parse("2026-03-01T00:00:00Z");

    private static SpendLimit limit(SpendScope scope, SpendPeriod period, long cap, long spent) {
        return new SpendLimit(scope, period, cap, spent, period.start(DAY));
    }

    @Test
    void noLimitAdmitsWithItsOwnReason() {
        SpendDecision d = SpendDecision.judge(List.of());
        assertThat(d.allowed()).isTrue();
        assertThat(d.reason()).isEqualTo(SpendDecision.Reason.NO_LIMIT);
        assertThat(SpendDecision.judge(null).reason()).isEqualTo(SpendDecision.Reason.NO_LIMIT);
    }

    @Test
    void limitsWithSpendLeftAdmit() {
        SpendDecision d = SpendDecision.judge(List.of(limit(SpendScope.ORGANIZATION, SpendPeriod.MONTH, 10, 9)));
        assertThat(d.allowed()).isTrue();
        assertThat(d.reason()).isEqualTo(SpendDecision.Reason.WITHIN_LIMITS);
        assertThat(d.reached()).isEmpty();
    }

    @Test
    void spendEqualToTheCapIsReachedAndAZeroCapAdmitsNothing() {
        assertThat(SpendDecision.judge(List.of(limit(SpendScope.PROJECT, SpendPeriod.DAY, 10, 10))).allowed())
                .isFalse();
        assertThat(SpendDecision.judge(List.of(limit(SpendScope.SANDBOX, SpendPeriod.DAY, 0, 0))).allowed())
                .isFalse();
    }

    @Test
    void everyReachedLimitIsNamedNotOnlyTheFirst() {
        SpendLimit org = limit(SpendScope.ORGANIZATION, SpendPeriod.MONTH, 100, 100);
        SpendLimit project = limit(SpendScope.PROJECT, SpendPeriod.DAY, 50, 20);
        SpendLimit sandbox = limit(SpendScope.SANDBOX, SpendPeriod.DAY, 5, 7);
        SpendDecision d = SpendDecision.judge(List.of(org, project, sandbox));
        assertThat(d.allowed()).isFalse();
        assertThat(d.reason()).isEqualTo(SpendDecision.Reason.LIMIT_REACHED);
        assertThat(d.reached()).containsExactly(org, sandbox);
        assertThat(d.applicable()).containsExactly(org, project, sandbox);
    }

    @Test
    void periodsAreUtcCalendarDaysAndMonthsHalfOpen() {
        Instant lastInstant = Instant.parse("2026-02-28T23:59:59.999Z");
        assertThat(SpendPeriod.DAY.start(lastInstant)).isEqualTo(Instant.parse("2026-02-28T00:00:00Z"));
        assertThat(SpendPeriod.MONTH.end(lastInstant)).isEqualTo(DAY);
        assertThat(SpendPeriod.MONTH.start(DAY)).isEqualTo(DAY);
        SpendLimit l = limit(SpendScope.ORGANIZATION, SpendPeriod.DAY, 10, 4);
        assertThat(l.periodEnd()).isEqualTo(Instant.parse("2026-03-02T00:00:00Z"));
        assertThat(l.remainingMicros()).isEqualTo(6);
        assertThat(limit(SpendScope.ORGANIZATION, SpendPeriod.DAY, 10, 40).remainingMicros()).isZero();
    }
}

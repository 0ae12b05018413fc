package dev.stockade.api.spend;

import dev.stockade.policy.compiler.SpendPeriod;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.constraints.NotNull;

/**
 * The body of a limit's PUT (and the arguments of its MCP tool).
 *
 * @param amountUsd a decimal string of USD, at most six decimals ({@code "25"}, {@code "0.50"}); zero allows nothing
 * @param period    {@code month} (the default: the calendar month in UTC) or {@code day} (the calendar day in UTC)
 */
@Introspected
public record SetLimit(@NotNull String amountUsd, @Nullable String period) {
    long amountMicros() {
        return Money.parseUsd("/amountUsd", amountUsd);
    }

    SpendPeriod spendPeriod() {
        return period == null ? SpendPeriod.MONTH : SpendPeriod.of(period).orElseThrow(() ->
                dev.stockade.api.kernel.web.ApiProblem.invalid("/period", "invalid", "`period` must be `month` or `day`"));
    }
}

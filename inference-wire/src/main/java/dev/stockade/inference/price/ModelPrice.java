package dev.stockade.inference.price;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The prices of one model row of the price data: its context window and its price schedule. A row whose prices
 * could not be read has an empty schedule: it still matches its models, so they stay unpriced instead of
 * falling through to a broader row.
 *
 * @param provider      the data provider id ({@code aws}, {@code anthropic}, ...)
 * @param modelId       the row's id
 * @param contextWindow the model's context window in tokens, when the data states it
 * @param schedule      the prices, in data order; empty when the row is unusable
 */
public record ModelPrice(String provider, String modelId, OptionalLong contextWindow, List<Scheduled> schedule) {

    /** When a scheduled price applies. */
    public sealed interface Constraint {
        /** Whether the price applies at {@code at}. */
        boolean holds(Instant at);
    }

    /** From a day on (UTC midnight). */
    public record StartDate(LocalDate from) implements Constraint {
        public boolean holds(Instant at) {
            return !at.isBefore(from.atStartOfDay(ZoneOffset.UTC).toInstant());
        }
    }

    /** Within a daily window of UTC seconds, {@code [start, end)}, wrapping past midnight when end is before start. */
    public record TimeOfDay(int startSecond, int endSecond) implements Constraint {
        public boolean holds(Instant at) {
            int now = at.atOffset(ZoneOffset.UTC).toLocalTime().toSecondOfDay();
            return endSecond < startSecond ? now >= startSecond || now < endSecond
                    : now >= startSecond && now < endSecond;
        }
    }

    /**
     * Prices that apply when {@code constraint} holds, or always when it is empty.
     *
     * @param constraint when, if constrained
     * @param rates      the prices
     */
    public record Scheduled(Optional<Constraint> constraint, Rates rates) {
    }

    public ModelPrice {
        schedule = List.copyOf(schedule);
    }

    /** The prices at {@code at}: the last entry whose constraint holds, else the first (as the data's calculator). */
    public Optional<Rates> ratesAt(Instant at) {
        for (int i = schedule.size() - 1; i >= 0; i--) {
            Scheduled entry = schedule.get(i);
            if (entry.constraint().isEmpty() || entry.constraint().get().holds(at)) {
                return Optional.of(entry.rates());
            }
        }
        return schedule.isEmpty() ? Optional.empty() : Optional.of(schedule.get(0).rates());
    }
}

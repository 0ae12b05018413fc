package dev.stockade.api.kernel.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.testing.Await;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.core5.concurrent.Cancellable;
import org.junit.jupiter.api.Test;

/** A deadline aborts the exchange and marks it expired; one disarmed in time leaves the exchange alone. */
class ExchangeDeadlinesTest {

    /** An exchange that records whether it was cancelled. */
    private static final class Exchange implements Cancellable {
        final AtomicBoolean cancelled = new AtomicBoolean();

        @Override
        public boolean cancel() {
            cancelled.set(true);
            return true;
        }
    }

    @Test
    void aDeadlineThatPassesCancelsTheExchangeAndMarksItExpired() {
        try (ExchangeDeadlines deadlines = new ExchangeDeadlines("test-deadlines")) {
            Exchange exchange = new Exchange();
            AtomicBoolean expired = new AtomicBoolean();
            deadlines.abortAfter(Duration.ofMillis(10), exchange, expired);
            Await.until("the exchange is cancelled", exchange.cancelled::get);
            assertThat(expired).isTrue();
        }
    }

    @Test
    void aDeadlineDisarmedBeforeItPassesLeavesTheExchangeAlone() {
        try (ExchangeDeadlines deadlines = new ExchangeDeadlines("test-deadlines")) {
            Exchange exchange = new Exchange();
            AtomicBoolean expired = new AtomicBoolean();
            ScheduledFuture<?> deadline = deadlines.abortAfter(Duration.ofHours(1), exchange, expired);
            assertThat(deadline.cancel(false)).isTrue();
            assertThat(deadline.isCancelled()).isTrue();
            assertThat(exchange.cancelled).isFalse();
            assertThat(expired).isFalse();
        }
    }
}

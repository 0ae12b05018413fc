package dev.stockade.host.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void doublesUpToTheCapAndStartsOverAfterASuccess() throws InterruptedException {
        Backoff b = new Backoff(Duration.ofMillis(1), Duration.ofMillis(5));
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waits.add(b.next().toMillis());
            b.pause();
        }
        assertThat(waits).containsExactly(1L, 2L, 4L, 5L, 5L);
        b.reset();
        assertThat(b.next()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void refusesBoundsThatCannotBackOff() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.stockade.pii;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The separate-process worker against a real child JVM: masking, death of the child, timeouts. */
class ProcessWorkerTest {

    private static final MaskingSettings SETTINGS = MaskingSettings.of(EnumSet.of(PiiType.EMAIL, PiiType.PHONE))
            .withUnmaskResponses(true);
    private static final byte[] BODY = ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"mail jane@example.com or call (415) 867-5309\"}]}").getBytes(StandardCharsets.UTF_8);

    @Test
    void masksInTheChildAndRestoresInTheParent() throws Exception {
        try (ProcessWorker w = ProcessWorker.start(SETTINGS, Duration.ofSeconds(60))) {
            MaskedBody m = w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(30));
            String masked = new String(m.body(), StandardCharsets.UTF_8);
            assertThat(masked).doesNotContain("jane@example.com", "867-5309");
            assertThat(m.masked()).containsEntry(PiiType.EMAIL, 1).containsEntry(PiiType.PHONE, 1);
            assertThat(m.restorer().restore(masked)).isEqualTo(new String(BODY, StandardCharsets.UTF_8));
        }
    }

    @Test
    void aKilledChildMakesTheWorkerDead() throws Exception {
        try (ProcessWorker w = ProcessWorker.start(SETTINGS, Duration.ofSeconds(60))) {
            ProcessHandle child = ProcessHandle.of(w.pid()).orElseThrow();
            child.destroyForcibly();
            child.onExit().get(30, TimeUnit.SECONDS);
            assertThat(w.health()).isEqualTo(WorkerHealth.DEAD);
            MaskingException e = org.junit.jupiter.api.Assertions.assertThrows(MaskingException.class,
                    () -> w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(10)));
            assertThat(e.kind()).isEqualTo(MaskingException.Kind.WORKER_DEAD);
            assertThat(SETTINGS.onFailure(e)).isEqualTo(FailureAction.REFUSE_503);
        }
    }

    @Test
    void aTimeoutReplacesTheChildWithAFreshOne() throws Exception {
        try (ProcessWorker w = ProcessWorker.start(SETTINGS, Duration.ofSeconds(60))) {
            long before = w.pid();
            MaskingException e = org.junit.jupiter.api.Assertions.assertThrows(MaskingException.class,
                    () -> w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofNanos(1)));
            assertThat(e.kind()).isEqualTo(MaskingException.Kind.TIMEOUT);
            assertThat(w.pid()).isNotEqualTo(before);
            assertThat(w.health()).isEqualTo(WorkerHealth.ALIVE);
            assertThat(w.mask(BODY, WireFormat.OPENAI_CHAT, Duration.ofSeconds(30)).masked()).containsKey(PiiType.EMAIL);
        }
    }

    @Test
    void theChildReportsAnInvalidBodyWithoutDying() throws Exception {
        try (ProcessWorker w = ProcessWorker.start(SETTINGS, Duration.ofSeconds(60))) {
            MaskingException e = org.junit.jupiter.api.Assertions.assertThrows(MaskingException.class,
                    () -> w.mask("[]".getBytes(), WireFormat.OPENAI_CHAT, Duration.ofSeconds(30)));
            assertThat(e.kind()).isEqualTo(MaskingException.Kind.INVALID_BODY);
            assertThat(w.health()).isEqualTo(WorkerHealth.ALIVE);
        }
    }
}

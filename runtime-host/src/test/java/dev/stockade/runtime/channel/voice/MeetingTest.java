package dev.stockade.runtime.channel.voice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.observe.Telemetry;
import dev.stockade.testing.Await;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Meetings in the real browser (Debian's chromium through chromedriver) against a local lobby page, with PulseAudio
 * null sinks as the sound card. Requires chromium, chromium-driver, pulseaudio and pulseaudio-utils (.ci/run).
 */
class MeetingTest {
    private static final String KEY = "sk-realtime-meeting-0123456789";
    private static final Duration BOUND = Duration.ofSeconds(45);
    private static final ChildEnvironment ENV = ChildEnvironment.of(System.getenv());
    private static final VoiceToolchain TOOLS = VoiceToolchain.find(System.getenv("PATH"));

    @TempDir
    Path data;
    private LobbyDouble lobby;

    @BeforeEach
    void start() throws Exception {
        assertThat(TOOLS.missing()).as("install chromium chromium-driver pulseaudio pulseaudio-utils").isEmpty();
        lobby = new LobbyDouble();
    }

    @AfterEach
    void stop() {
        lobby.close();
    }

    private VoiceSettings settings(String url, Duration admission, Duration cap) {
        return RealtimeSessionTest.settings(url, KEY, 1).withLimits(admission, cap).withProfile(data.resolve(
                "meeting-profile"));
    }

    private MeetingOutcome run(Meeting m) throws Exception {
        CompletableFuture.runAsync(m::run);
        return m.outcome().get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void admittedWithTheVirtualMicrophoneThenLeavesCleanlyOnRequest() throws Exception {
        Meeting m = new Meeting(lobby.meeting("admit", 300, 0), settings("ws://127.0.0.1:9/x", Duration.ofSeconds(30),
                Duration.ofMinutes(5)), TOOLS, ENV, devices -> () -> { });
        CompletableFuture.runAsync(m::run);
        m.admitted().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        m.leave();
        assertThat(m.outcome().get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(MeetingOutcome.LEFT);
        assertThat(lobby.events).containsExactly("asked", "microphone", "admitted", "left");
        assertCleanedUp();
    }

    @Test
    void neverAdmittedEndsAtTheAdmissionTimeoutCountedFromTheJoinRequest() throws Exception {
        Instant t0 = Instant.now();
        Meeting m = new Meeting(lobby.meeting("never", 0, 0), settings("ws://127.0.0.1:9/x", Duration.ofSeconds(3),
                Duration.ofMinutes(5)), TOOLS, ENV, devices -> () -> { });
        assertThat(run(m)).isEqualTo(MeetingOutcome.NOT_ADMITTED);
        assertThat(Duration.between(t0, Instant.now())).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
        // the microphone answer may or may not come before the deadline on a cold browser; entry never does
        assertThat(lobby.events).startsWith("asked").doesNotContain("admitted");
        assertThat(m.admitted()).isNotDone();
        assertCleanedUp();
    }

    @Test
    void aRefusalEndsTheWait() throws Exception {
        Meeting m = new Meeting(lobby.meeting("refuse", 200, 0), settings("ws://127.0.0.1:9/x",
                Duration.ofSeconds(30), Duration.ofMinutes(5)), TOOLS, ENV, devices -> () -> { });
        assertThat(run(m)).isEqualTo(MeetingOutcome.REFUSED);
        assertCleanedUp();
    }

    @Test
    void aHangUpEndsTheCall() throws Exception {
        Meeting m = new Meeting(lobby.meeting("hangup", 200, 1500), settings("ws://127.0.0.1:9/x",
                Duration.ofSeconds(30), Duration.ofMinutes(5)), TOOLS, ENV, devices -> () -> { });
        assertThat(run(m)).isEqualTo(MeetingOutcome.HUNG_UP);
        assertThat(lobby.events).containsExactly("asked", "microphone", "admitted", "ended");
        assertCleanedUp();
    }

    @Test
    void theCapEndsTheCallAndTheAgentLeaves() throws Exception {
        Instant t0 = Instant.now();
        Meeting m = new Meeting(lobby.meeting("admit", 200, 0), settings("ws://127.0.0.1:9/x", Duration.ofSeconds(30),
                Duration.ofSeconds(2)), TOOLS, ENV, devices -> () -> { });
        assertThat(run(m)).isEqualTo(MeetingOutcome.CAP_REACHED);
        assertThat(Duration.between(t0, Instant.now())).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(lobby.events).containsExactly("asked", "microphone", "admitted", "left");
        assertCleanedUp();
    }

    @Test
    void theCallsSoundReachesTheRealtimeSessionAndTheAgentAnswersWhenAddressed() throws Exception {
        try (RealtimeDouble realtime = new RealtimeDouble(KEY)) {
            VoiceSettings s = settings(realtime.url(), Duration.ofSeconds(30), Duration.ofMinutes(5));
            AtomicReference<AudioDevices> devices = new AtomicReference<>();
            RealtimeVoice voice = new RealtimeVoice(s, () -> List.of("Ada"), Telemetry.off());
            Meeting m = new Meeting(lobby.meeting("admit", 200, 0), s, TOOLS, ENV, d -> {
                devices.set(d);
                return voice.connect(d);
            });
            CompletableFuture.runAsync(m::run);
            m.admitted().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            Await.until("the session is configured", () -> realtime.types().contains("session.update"));
            // a caller speaks into the call: a tone played into the sink the browser plays the call into
            Process caller = ENV.processBuilder(List.of("pacat", "--playback", "--device=" + devices.get().callSink(),
                    "--format=s16le", "--rate=24000", "--channels=1", "--raw")).start();
            try (OutputStream out = caller.getOutputStream()) {
                out.write(tone(24_000));
            }
            Await.until("the tone reaches input_audio_buffer.append", () -> loud(realtime.audio()));
            realtime.speak("Ada, are you there?");
            Await.until("the agent answered", () -> realtime.types().contains("response.create"));
            m.leave();
            assertThat(m.outcome().get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(MeetingOutcome.LEFT);
            caller.destroy();
        }
        assertCleanedUp();
    }

    /** One second of a loud square wave, PCM16 mono. */
    private static byte[] tone(int samples) {
        byte[] b = new byte[samples * 2];
        for (int i = 0; i < samples; i++) {
            short v = (short) (i % 48 < 24 ? 12_000 : -12_000);
            b[2 * i] = (byte) v;
            b[2 * i + 1] = (byte) (v >> 8);
        }
        return b;
    }

    /** Whether some sample of {@code pcm} is far from silence (the null sink's monitor is all zeros otherwise). */
    private static boolean loud(byte[] pcm) {
        for (int i = 0; i + 1 < pcm.length; i += 2) {
            short v = (short) ((pcm[i] & 0xff) | (pcm[i + 1] << 8));
            if (Math.abs(v) > 4_000) {
                return true;
            }
        }
        return false;
    }

    /** The browser is gone and the null sinks are unloaded. */
    private void assertCleanedUp() throws Exception {
        String profile = data.resolve("meeting-profile").toString();
        Await.until("no browser process uses the profile", () -> ProcessHandle.allProcesses()
                .noneMatch(p -> p.info().commandLine().orElse("").contains(profile)));
        Process p = ENV.processBuilder(List.of("pactl", "list", "short", "modules")).start();
        String modules = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        assertThat(modules).doesNotContain("stockade_");
    }
}

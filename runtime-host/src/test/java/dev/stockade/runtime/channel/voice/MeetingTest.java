package dev.stockade.runtime.channel.voice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.observe.Log;
import dev.stockade.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Meetings in the real browser (Debian's chromium through chromedriver) against a local lobby page, with PulseAudio
 * null sinks as the sound card, and the meeting account's sign-in against the lobby's sign-in pages. Requires chromium, chromium-driver, pulseaudio and pulseaudio-utils (.ci/run).
 */
class MeetingTest {
    private static final String KEY = "sk-realtime-meeting-0123456789";
    private static final Duration BOUND = Duration.ofSeconds(45);
    private static final ChildEnvironment ENV = ChildEnvironment.of(System.getenv());
    private static final VoiceToolchain TOOLS = VoiceToolchain.find(System.getenv("PATH"));
    private static final MeetingAccount ACCOUNT = new MeetingAccount("ada.bot@example.com", "c0rrect-Horse-Battery");

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
                Duration.ofMinutes(5)), TOOLS, ENV, (u, devices) -> () -> { });
        CompletableFuture.runAsync(m::run);
        m.admitted().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        m.leave();
        assertThat(m.outcome().get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(MeetingOutcome.LEFT);
        assertThat(lobby.events).containsExactly("asked", "microphone", "admitted", "left");
        assertCleanedUp(m);
    }

    @Test
    void neverAdmittedEndsAtTheAdmissionTimeoutCountedFromTheJoinRequest() throws Exception {
        Instant t0 = Instant.now();
        Meeting m = new Meeting(lobby.meeting("never", 0, 0), settings("ws://127.0.0.1:9/x", Duration.ofSeconds(3),
                Duration.ofMinutes(5)), TOOLS, ENV, (u, devices) -> () -> { });
        assertThat(run(m)).isEqualTo(MeetingOutcome.NOT_ADMITTED);
        assertThat(Duration.between(t0, Instant.now())).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
        // the microphone answer may or may not come before the deadline on a cold browser; entry never does
        assertThat(lobby.events).startsWith("asked").doesNotContain("admitted");
        assertThat(m.admitted()).isNotDone();
        assertCleanedUp(m);
    }

    @Test
    void aRefusalEndsTheWait() throws Exception {
        Meeting m = new Meeting(lobby.meeting("refuse", 200, 0), settings("ws://127.0.0.1:9/x",
                Duration.ofSeconds(30), Duration.ofMinutes(5)), TOOLS, ENV, (u, devices) -> () -> { });
        assertThat(run(m)).isEqualTo(MeetingOutcome.REFUSED);
        assertCleanedUp(m);
    }

    @Test
    void aHangUpEndsTheCall() throws Exception {
        Meeting m = new Meeting(lobby.meeting("hangup", 200, 1500), settings("ws://127.0.0.1:9/x",
                Duration.ofSeconds(30), Duration.ofMinutes(5)), TOOLS, ENV, (u, devices) -> () -> { });
        assertThat(run(m)).isEqualTo(MeetingOutcome.HUNG_UP);
        assertThat(lobby.events).containsExactly("asked", "microphone", "admitted", "ended");
        assertCleanedUp(m);
    }

    @Test
    void theCapEndsTheCallAndTheAgentLeaves() throws Exception {
        Instant t0 = Instant.now();
        Meeting m = new Meeting(lobby.meeting("admit", 200, 0), settings("ws://127.0.0.1:9/x", Duration.ofSeconds(30),
                Duration.ofSeconds(2)), TOOLS, ENV, (u, devices) -> () -> { });
        assertThat(run(m)).isEqualTo(MeetingOutcome.CAP_REACHED);
        assertThat(Duration.between(t0, Instant.now())).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(lobby.events).containsExactly("asked", "microphone", "admitted", "left");
        assertCleanedUp(m);
    }

    @Test
    void theAccountSignsInOnceAndTheNextJoinSkipsTheSignInPage() throws Exception {
        lobby.requireSignIn(ACCOUNT, false);
        assertThat(joinAndLeave(ACCOUNT)).isEqualTo(MeetingOutcome.LEFT);
        assertThat(lobby.signInVisits).containsExactly("GET /signin/identifier", "POST /signin/identifier",
                "GET /signin/challenge/pwd", "POST /signin/challenge/pwd");
        lobby.signInVisits.clear();
        lobby.events.clear();
        // a new browser on the same profile: the session the provider set is still there
        assertThat(joinAndLeave(ACCOUNT)).isEqualTo(MeetingOutcome.LEFT);
        assertThat(lobby.signInVisits).isEmpty();
        assertThat(lobby.events).containsExactly("asked", "microphone", "admitted", "left");
    }

    @Test
    void aWrongPasswordEndsTheAttemptNamingTheCauseAndNeverThePassword() throws Exception {
        lobby.requireSignIn(ACCOUNT, false);
        MeetingAccount wrong = new MeetingAccount(ACCOUNT.email(), "Wr0ng-but-Secret-Passw0rd");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Log.to(new PrintStream(log, true, StandardCharsets.UTF_8));
        Meeting m;
        try {
            m = meeting(wrong);
            assertThat(run(m)).isEqualTo(MeetingOutcome.FAILED);
        } finally {
            Log.to(System.err);
        }
        assertThat(m.failure()).hasValue("the meeting account `ada.bot@example.com` could not sign in: wrong "
                + "password (check GOOGLE_BOT_PASSWORD)");
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("voice.sign_in_refused")
                .doesNotContain(wrong.password());
        assertThat(lobby.events).isEmpty();
        assertCleanedUp(m);
    }

    @Test
    void aVerifyItsYouChallengeEndsTheAttemptAndSaysAPersonIsNeeded() throws Exception {
        lobby.requireSignIn(ACCOUNT, true);
        Meeting m = meeting(ACCOUNT);
        assertThat(run(m)).isEqualTo(MeetingOutcome.FAILED);
        assertThat(m.failure()).hasValueSatisfying(f -> assertThat(f)
                .startsWith("the meeting account `ada.bot@example.com` must verify it's you")
                .contains("a person has to sign it in once").doesNotContain(ACCOUNT.password()));
        assertThat(lobby.signInVisits).endsWith("GET /signin/challenge/ipp");
        assertCleanedUp(m);
    }

    @Test
    void aMeetingThatAsksToSignInWithoutAnAccountIsRefusedNamingTheVariables() throws Exception {
        lobby.requireSignIn(ACCOUNT, false);
        Meeting m = meeting(MeetingAccount.NONE);
        assertThat(run(m)).isEqualTo(MeetingOutcome.FAILED);
        assertThat(m.failure()).hasValue("the meeting asks the account to sign in, and GOOGLE_BOT_EMAIL and "
                + "GOOGLE_BOT_PASSWORD are not both set");
        assertThat(lobby.signInVisits).containsExactly("GET /signin/identifier");
        assertCleanedUp(m);
    }

    @Test
    void theBrowserInheritsTheProxyWithoutItsPassword() throws Exception {
        String secret = "pr0xy-Pass@word/with-signs";
        Map<String, String> vars = new HashMap<>(System.getenv());
        vars.put("HTTPS_PROXY", "http://sandbox:" + secret + "@127.0.0.1:9");
        Meeting m = new Meeting(lobby.meeting("admit", 200, 0), settings("ws://127.0.0.1:9/x", Duration.ofSeconds(30),
                Duration.ofMinutes(5)), TOOLS, ChildEnvironment.of(vars), (u, devices) -> () -> { });
        CompletableFuture.runAsync(m::run);
        m.admitted().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        String profile = data.resolve("meeting-profile").toString();
        List<String> environments = ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().orElse("").contains(profile))
                .map(p -> environment(p.pid())).toList();
        m.leave();
        assertThat(m.outcome().get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(MeetingOutcome.LEFT);
        assertThat(environments).isNotEmpty().allSatisfy(e -> assertThat(e)
                .contains("HTTPS_PROXY=http://127.0.0.1:9").doesNotContain("pr0xy", "sandbox"));
        assertCleanedUp(m);
    }

    /** A process's environment as {@code /proc} shows it, or an empty string when it is already gone. */
    private static String environment(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "environ"), StandardCharsets.ISO_8859_1)
                    .replace('\0', '\n');
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private Meeting meeting(MeetingAccount account) {
        return new Meeting(lobby.meeting("admit", 200, 0), settings("ws://127.0.0.1:9/x", Duration.ofSeconds(30),
                Duration.ofMinutes(5)).withAccount(account), TOOLS, ENV, (u, devices) -> () -> { });
    }

    private MeetingOutcome joinAndLeave(MeetingAccount account) throws Exception {
        Meeting m = meeting(account);
        CompletableFuture.runAsync(m::run);
        m.admitted().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        m.leave();
        MeetingOutcome o = m.outcome().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertCleanedUp(m);
        return o;
    }

    /**
     * The browser is gone and this meeting's null sinks are unloaded (only this meeting's: another run may hold a call
     * of its own on the same PulseAudio server).
     */
    private void assertCleanedUp(Meeting m) throws Exception {
        String profile = data.resolve("meeting-profile").toString();
        Await.until("no browser process uses the profile", () -> ProcessHandle.allProcesses()
                .noneMatch(p -> p.info().commandLine().orElse("").contains(profile)));
        String id = m.callSink().orElseThrow().substring("stockade_call_".length());
        Process p = ENV.processBuilder(List.of("pactl", "list", "short", "modules")).start();
        String modules = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        assertThat(modules).doesNotContain(id);
    }
}

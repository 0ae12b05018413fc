package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.observe.Log;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One video call, from the join request to leaving: the waiting room is bounded from the join request, the call by
 * the hard cap from admission, and whatever happens the browser is closed and the audio devices unloaded.
 */
public final class Meeting {
    /** How often the page is looked at; a person waiting in a lobby notices no quarter second. */
    private static final Duration LOOK = Duration.ofMillis(250);

    /** Connects the agent's voice once admitted: given the devices, returns what to close when the call ends. */
    @FunctionalInterface
    public interface Voice {
        AutoCloseable connect(URI meeting, AudioDevices devices) throws VoiceRefused;
    }

    private final URI url;
    private final VoiceSettings settings;
    private final VoiceToolchain tools;
    private final ChildEnvironment env;
    private final Voice voice;
    private final CompletableFuture<MeetingOutcome> outcome = new CompletableFuture<>();
    private final CompletableFuture<Void> admitted = new CompletableFuture<>();
    private volatile boolean leaveRequested;
    private volatile String failure;
    private volatile String callSink;

    public Meeting(URI url, VoiceSettings settings, VoiceToolchain tools, ChildEnvironment env, Voice voice) {
        this.url = url;
        this.settings = settings;
        this.tools = tools;
        this.env = env;
        this.voice = voice;
    }

    /** Runs the meeting to its end on the calling thread and returns how it ended. */
    public MeetingOutcome run() {
        Instant requested = Instant.now();
        MeetingOutcome end;
        try (AudioDevices audio = AudioDevices.open(env);
                MeetingBrowser browser = MeetingBrowser.start(tools, env, audio.browserEnvironment(),
                        settings.profileDir())) {
            callSink = audio.callSink();
            browser.open(url, settings.account());
            browser.askToJoin();
            end = waitForAdmission(browser, requested.plus(settings.admission()));
            if (end == null) {
                admitted.complete(null);
                try (AutoCloseable connected = voice.connect(url, audio)) {
                    end = stayInCall(browser, Instant.now().plus(settings.cap()));
                }
            }
            browser.leave();
        } catch (VoiceRefused e) {
            failure = e.getMessage();
            Log.warn("voice.meeting_failed", "reason", e.getMessage());
            end = MeetingOutcome.FAILED;
        } catch (Exception e) {
            failure = "the meeting failed: " + e.getClass().getSimpleName();
            Log.warn("voice.meeting_failed", "error", e.getClass().getSimpleName());
            end = MeetingOutcome.FAILED;
        }
        Log.info("voice.meeting_ended", "outcome", end.wire());
        outcome.complete(end);
        return end;
    }

    /** {@code null} once in the call; otherwise why the waiting ended. */
    private MeetingOutcome waitForAdmission(MeetingBrowser browser, Instant deadline) {
        while (Instant.now().isBefore(deadline)) {
            if (leaveRequested || Thread.currentThread().isInterrupted()) {
                return MeetingOutcome.LEFT;
            }
            if (browser.inCall()) {
                return null;
            }
            if (browser.refused()) {
                return MeetingOutcome.REFUSED;
            }
            pause(LOOK);
        }
        return MeetingOutcome.NOT_ADMITTED;
    }

    private MeetingOutcome stayInCall(MeetingBrowser browser, Instant cap) {
        while (Instant.now().isBefore(cap)) {
            if (leaveRequested || Thread.currentThread().isInterrupted()) {
                return MeetingOutcome.LEFT;
            }
            if (!browser.inCall()) {
                return MeetingOutcome.HUNG_UP;
            }
            pause(LOOK);
        }
        return MeetingOutcome.CAP_REACHED;
    }

    /** Asks the meeting to leave at its next look at the page. */
    public void leave() {
        leaveRequested = true;
    }

    /** Completes when the meeting has ended and everything is closed. */
    public CompletableFuture<MeetingOutcome> outcome() {
        return outcome;
    }

    /** Why a {@link MeetingOutcome#FAILED} meeting failed, in words that name no secret; empty otherwise. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /** The PulseAudio sink this meeting's browser plays the call into, once the devices are loaded. */
    public Optional<String> callSink() {
        return Optional.ofNullable(callSink);
    }

    /** Completes when the agent is in the call. */
    public CompletableFuture<Void> admitted() {
        return admitted;
    }

    public URI url() {
        return url;
    }

    /**
     * The wait between two looks at the meeting page: WebDriver gives no event when the page changes, so the waiting
     * room and the call are polled, each loop bounded by its own deadline (admission, the cap).
     */
    static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.agent.LiveAgent;
import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;
import java.util.function.Supplier;

/**
 * The agent's voice in a call: the call's sound (the call sink's monitor) streams into a realtime session in
 * 100 ms frames, the model's audio is played into the sink the browser uses as its microphone, and the session
 * carries the one agent's instructions and tools, its calls stored as a thread.
 */
public final class RealtimeVoice implements Meeting.Voice {
    /** 100 ms of PCM16 mono at 24 kHz. */
    static final int FRAME_BYTES = 4_800;
    /** Appended to the agent's instructions: the same agent, speaking. */
    static final String IN_A_CALL = "\n## In a call\nYou are in a video call and speak aloud: answer briefly, in "
            + "plain spoken sentences, without markdown or links. You hear the whole call but are asked to speak only "
            + "when someone says your name: answer the latest turn that did.\n";

    private final VoiceSettings settings;
    private final Supplier<List<String>> wakeWords;
    private final LiveAgent agent;
    private final Conversations conversations;
    private final Telemetry telemetry;

    /** {@code wakeWords} and the agent's instructions are read when a call starts, so a renamed agent answers. */
    public RealtimeVoice(VoiceSettings settings, Supplier<List<String>> wakeWords, LiveAgent agent,
            Conversations conversations, Telemetry telemetry) {
        this.settings = settings;
        this.wakeWords = wakeWords;
        this.agent = agent;
        this.conversations = conversations;
        this.telemetry = telemetry;
    }

    @Override
    public AutoCloseable connect(URI meeting, AudioDevices devices) throws VoiceRefused {
        CallThread thread = CallThread.open(conversations, meeting);
        CallBrief brief = brief(thread);
        OutputStream speaker = devices.speak();
        RealtimeSession session = RealtimeSession.open(settings, Addressing.byName(wakeWords.get()), brief,
                new RealtimeSession.Listener() {
                    @Override
                    public void audio(byte[] pcm16) {
                        play(speaker, pcm16);
                    }

                    @Override
                    public void heard(String transcript, boolean addressed) {
                        if (addressed) {
                            thread.heard(transcript);
                        }
                    }

                    @Override
                    public void replied(String transcript) {
                        thread.said(transcript);
                    }
                }, telemetry);
        InputStream heard = devices.listen();
        Thread pump = new Thread(() -> pump(heard, session), "voice-listen");
        pump.setDaemon(true);
        pump.start();
        return () -> {
            pump.interrupt();
            heard.close();
            session.close();
            speaker.close();
        };
    }

    private CallBrief brief(CallThread thread) throws VoiceRefused {
        try {
            return new CallBrief(agent.instructions() + IN_A_CALL, agent.tools(),
                    (callId, name, input) -> agent.call(thread.id(), callId, name, input));
        } catch (Exception e) {
            throw new VoiceRefused("could not read the agent's instructions: " + e.getClass().getSimpleName());
        }
    }

    /** Reads whole frames until the stream ends (the recorder stops when the devices close). */
    static void pump(InputStream heard, RealtimeSession session) {
        try {
            byte[] frame;
            while (!Thread.currentThread().isInterrupted() && (frame = heard.readNBytes(FRAME_BYTES)).length > 0) {
                session.appendAudio(frame);
            }
        } catch (IOException | RuntimeException e) {
            Log.info("voice.listen_ended", "error", e.getClass().getSimpleName());
        }
    }

    private static void play(OutputStream speaker, byte[] pcm) {
        try {
            speaker.write(pcm);
            speaker.flush();
        } catch (IOException e) {
            Log.warn("voice.play_failed", "error", e.getClass().getSimpleName());
        }
    }
}

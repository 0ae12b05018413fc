package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.observe.Log;
import dev.stockade.runtime.observe.Telemetry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Supplier;

/**
 * The agent's voice in a call: the call's sound (the call sink's monitor) streams into a realtime session in
 * 100 ms frames, and the model's audio is played into the sink the browser uses as its microphone.
 */
public final class RealtimeVoice implements Meeting.Voice {
    /** 100 ms of PCM16 mono at 24 kHz. */
    static final int FRAME_BYTES = 4_800;

    private final VoiceSettings settings;
    private final Supplier<List<String>> wakeWords;
    private final Telemetry telemetry;

    /** {@code wakeWords} is read when a call starts, so a renamed agent answers to its new name. */
    public RealtimeVoice(VoiceSettings settings, Supplier<List<String>> wakeWords, Telemetry telemetry) {
        this.settings = settings;
        this.wakeWords = wakeWords;
        this.telemetry = telemetry;
    }

    @Override
    public AutoCloseable connect(AudioDevices devices) throws VoiceRefused {
        OutputStream speaker = devices.speak();
        RealtimeSession session = RealtimeSession.open(settings, Addressing.byName(wakeWords.get()),
                pcm -> play(speaker, pcm), telemetry);
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

package dev.stockade.runtime.channel.voice;

import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.observe.Log;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The meeting's virtual sound card: two PulseAudio null sinks, one the browser plays the call into (its monitor is
 * what the agent hears) and one the agent speaks into (its monitor is the browser's microphone). Closing unloads
 * both and stops anything this object started.
 */
public final class AudioDevices implements AutoCloseable {
    /** The realtime API's audio format: PCM16 mono at 24 kHz. */
    static final List<String> FORMAT = List.of("--format=s16le", "--rate=24000", "--channels=1", "--raw",
            // PulseAudio's default buffers hold two seconds; a conversation needs a tenth of that.
            "--latency-msec=100");
    private static final Duration DAEMON_START = Duration.ofSeconds(10);

    private final ChildEnvironment env;
    private final String callSink;
    private final String voiceSink;
    private final List<String> modules = new ArrayList<>();
    private final List<Process> children = new ArrayList<>();
    private String server = "";

    private AudioDevices(ChildEnvironment env, String id) {
        this.env = env;
        this.callSink = "stockade_call_" + id;
        this.voiceSink = "stockade_voice_" + id;
    }

    /** Starts PulseAudio if no server answers, then loads the two null sinks. */
    public static AudioDevices open(ChildEnvironment env) throws VoiceRefused {
        AudioDevices d = new AudioDevices(env, UUID.randomUUID().toString().substring(0, 8));
        try {
            d.ensureServer();
            d.modules.add(d.pactl("load-module", "module-null-sink", "sink_name=" + d.callSink).strip());
            d.modules.add(d.pactl("load-module", "module-null-sink", "sink_name=" + d.voiceSink).strip());
            // Chromium lists no monitor source as a microphone, so the voice sink's monitor is remapped into a plain
            // source.
            d.modules.add(d.pactl("load-module", "module-remap-source", "master=" + d.voiceSink + ".monitor",
                    "source_name=" + d.microphone()).strip());
            return d;
        } catch (VoiceRefused e) {
            d.close();
            throw e;
        }
    }

    /** What the browser's audio output and microphone are set to, through chromium's PulseAudio client. */
    public Map<String, String> browserEnvironment() {
        // The server is named outright: the browser's audio process does not look it up the way pactl does.
        return server.isEmpty() ? Map.of("PULSE_SINK", callSink, "PULSE_SOURCE", microphone())
                : Map.of("PULSE_SINK", callSink, "PULSE_SOURCE", microphone(), "PULSE_SERVER", server);
    }

    /** The call's sound as the agent hears it (PCM16 mono 24 kHz), read from the call sink's monitor. */
    public InputStream listen() throws VoiceRefused {
        List<String> cmd = new ArrayList<>(List.of("parec", "--device=" + callSink + ".monitor"));
        cmd.addAll(FORMAT);
        return start(cmd).getInputStream();
    }

    /** Where the agent's voice goes (PCM16 mono 24 kHz); the browser hears it as its microphone. */
    public OutputStream speak() throws VoiceRefused {
        List<String> cmd = new ArrayList<>(List.of("pacat", "--playback", "--device=" + voiceSink));
        cmd.addAll(FORMAT);
        return start(cmd).getOutputStream();
    }

    private String microphone() {
        return voiceSink + "_mic";
    }

    /** The sink the call plays into (tests write a caller's voice here). */
    public String callSink() {
        return callSink;
    }

    private void ensureServer() throws VoiceRefused {
        if (answers()) {
            return;
        }
        start(List.of("pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit"));
        Instant deadline = Instant.now().plus(DAEMON_START);
        while (Instant.now().isBefore(deadline)) {
            if (answers()) {
                return;
            }
            pause();
        }
        throw new VoiceRefused("the PulseAudio server did not start within " + DAEMON_START.toSeconds() + " s");
    }

    private boolean answers() {
        try {
            for (String line : pactl("info").split("\n")) {
                if (line.startsWith("Server String: ")) {
                    String named = line.substring("Server String: ".length()).strip();
                    server = named.startsWith("/") ? "unix:" + named : named;
                }
            }
            return true;
        } catch (VoiceRefused e) {
            return false;
        }
    }

    private String pactl(String... args) throws VoiceRefused {
        List<String> cmd = new ArrayList<>(List.of("pactl"));
        cmd.addAll(List.of(args));
        try {
            Process p = env.processBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new VoiceRefused("`pactl " + args[0] + "` failed");
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new VoiceRefused("could not run pactl: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VoiceRefused("interrupted while running pactl");
        }
    }

    private Process start(List<String> cmd) throws VoiceRefused {
        try {
            Process p = env.processBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            synchronized (children) {
                children.add(p);
            }
            return p;
        } catch (IOException e) {
            throw new VoiceRefused("could not start " + cmd.get(0) + ": " + e.getClass().getSimpleName());
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100); // polling a daemon that offers no readiness signal, bounded by the deadline
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        // The remapped source goes first: it holds the voice sink's monitor.
        for (int i = modules.size() - 1; i >= 0; i--) {
            String m = modules.get(i);
            try {
                pactl("unload-module", m);
            } catch (VoiceRefused e) {
                Log.warn("voice.sink_unload_failed", "module", m);
            }
        }
        modules.clear();
        synchronized (children) {
            children.forEach(Process::destroy);
            children.clear();
        }
    }
}

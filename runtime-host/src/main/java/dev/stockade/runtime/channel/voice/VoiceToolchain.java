package dev.stockade.runtime.channel.voice;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The host programs a meeting needs (a browser, its driver and the PulseAudio tools for the virtual audio devices),
 * looked up on PATH once at start, so that the meeting tools are offered only where a call could actually be placed.
 *
 * @param chromium the browser, or {@code null} when absent
 * @param chromedriver the WebDriver server for that browser, or {@code null}
 * @param pactl PulseAudio's control tool (loads the null sinks), or {@code null}
 * @param pulseaudio the PulseAudio daemon, or {@code null}
 */
public record VoiceToolchain(Path chromium, Path chromedriver, Path pactl, Path pulseaudio) {
    /** Looks each program up on {@code searchPath} (the PATH format); Debian's names first. */
    public static VoiceToolchain find(String searchPath) {
        return new VoiceToolchain(first(searchPath, "chromium", "chromium-browser", "google-chrome"),
                first(searchPath, "chromedriver"), first(searchPath, "pactl"), first(searchPath, "pulseaudio"));
    }

    /** The programs that are missing, by name; empty when a meeting can be joined. */
    public List<String> missing() {
        List<String> out = new ArrayList<>();
        if (chromium == null) {
            out.add("chromium");
        }
        if (chromedriver == null) {
            out.add("chromedriver");
        }
        if (pactl == null) {
            out.add("pactl");
        }
        if (pulseaudio == null) {
            out.add("pulseaudio");
        }
        return out;
    }

    /** Whether every program is present. */
    public boolean complete() {
        return missing().isEmpty();
    }

    private static Path first(String searchPath, String... names) {
        for (String name : names) {
            Optional<Path> p = onPath(searchPath, name);
            if (p.isPresent()) {
                return p.get();
            }
        }
        return null;
    }

    private static Optional<Path> onPath(String searchPath, String name) {
        if (searchPath == null || searchPath.isBlank()) {
            return Optional.empty();
        }
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue; // an empty entry means the working directory, never a place to trust for a browser
            }
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}

package dev.stockade.runtime.channel.voice;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Decides from the transcriber's text whether a speaker addressed the agent: the agent's name (or another wake
 * word) as a whole word. Only this decision leaves the transcript; its text never reaches the model.
 */
public final class Addressing {
    private final List<Pattern> wakeWords;

    private Addressing(List<Pattern> wakeWords) {
        this.wakeWords = wakeWords;
    }

    /** Wake words are matched case- and accent-insensitively, as whole words; blank ones are ignored. */
    public static Addressing byName(List<String> names) {
        List<Pattern> patterns = names.stream().map(n -> n == null ? "" : fold(n.strip())).filter(n -> !n.isEmpty())
                .map(n -> Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(n) + "(?![\\p{L}\\p{N}])"))
                .toList();
        if (patterns.isEmpty()) {
            throw new IllegalArgumentException("at least one wake word is needed, or the agent could never be addressed");
        }
        return new Addressing(patterns);
    }

    /** Whether {@code transcript} addresses the agent. */
    public boolean addressed(String transcript) {
        if (transcript == null || transcript.isBlank()) {
            return false;
        }
        String t = fold(transcript);
        return wakeWords.stream().anyMatch(p -> p.matcher(t).find());
    }

    private static String fold(String s) {
        String decomposed = Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
        return decomposed.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    }
}

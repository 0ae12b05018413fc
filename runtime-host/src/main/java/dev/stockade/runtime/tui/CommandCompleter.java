package dev.stockade.runtime.tui;

import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/** Tab completion of the slash commands and of their fixed arguments ({@code on}, {@code off}, {@code default}). */
final class CommandCompleter implements Completer {
    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        List<String> words = line.words();
        if (line.wordIndex() == 0 && line.word().startsWith("/")) {
            for (Command c : Command.values()) {
                candidates.add(new Candidate(c.word(), c.word(), null, c.help(), null, null, true));
            }
        } else if (line.wordIndex() == 1 && !words.isEmpty()) {
            Command.of(words.get(0)).ifPresent(c -> c.argumentValues().forEach(v -> candidates.add(new Candidate(v))));
        }
    }
}

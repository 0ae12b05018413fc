package dev.stockade.runtime.tui;

import java.util.List;
import java.util.Optional;

/**
 * The terminal's slash commands, in the order {@code /help} lists them; one place for their names, arguments and
 * help so that parsing, completion and help cannot disagree.
 */
public enum Command {
    THREADS("/threads", "", "list threads, newest first (* marks this one)"),
    RESUME("/resume", "N|ID", "continue thread N of /threads, or the thread with that id (or id prefix)"),
    NEW("/new", "", "start a new thread; it is created by its first message"),
    MODEL("/model", "[name|default]", "show or set the main model (default: the environment's)"),
    HEARTBEAT_MODEL("/heartbeat-model", "[name|default]", "show or set the heartbeat's model"),
    CRON_MODEL("/cron-model", "[name|default]", "show or set the cron tasks' model"),
    COMPACT("/compact", "", "summarise this thread's older messages now"),
    LOCK("/lock", "[on|off]", "show or switch the lock (document and memory writes refused)"),
    VERBOSE("/verbose", "[on|off]", "show or switch verbose (every step streamed as it is written)"),
    HELP("/help", "", "this list"),
    QUIT("/quit", "", "leave (Ctrl-D does too; Ctrl-C stops following a reply, at the prompt it leaves)");

    private final String word;
    private final String arguments;
    private final String help;

    Command(String word, String arguments, String help) {
        this.word = word;
        this.arguments = arguments;
        this.help = help;
    }

    /** What the user types, with its slash. */
    public String word() {
        return word;
    }

    /** The arguments as {@code /help} shows them; empty when the command takes none. */
    public String arguments() {
        return arguments;
    }

    public String help() {
        return help;
    }

    /** The values completion offers for the command's argument. */
    public List<String> argumentValues() {
        return switch (this) {
            case LOCK, VERBOSE -> List.of("on", "off");
            case MODEL, HEARTBEAT_MODEL, CRON_MODEL -> List.of("default");
            default -> List.of();
        };
    }

    /** The command whose word is exactly {@code word}. */
    public static Optional<Command> of(String word) {
        for (Command c : values()) {
            if (c.word.equals(word)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}

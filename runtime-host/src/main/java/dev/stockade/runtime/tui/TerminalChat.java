package dev.stockade.runtime.tui;

import dev.stockade.runtime.tui.AgentClient.Profile;
import dev.stockade.runtime.tui.Screen.Tone;
import java.io.IOException;
import java.io.PrintStream;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * {@code stockade runtime tui}: a line editor over the runtime's HTTP API. The terminal is put back as it was
 * found on every way out: closing it restores its settings after /quit, Ctrl-D, Ctrl-C at the prompt or an
 * exception, and JLine's own shutdown hook does so on SIGTERM or SIGHUP. Ctrl-C while a reply streams stops
 * following it; JLine's reader leaves raw mode between prompts.
 */
public final class TerminalChat {
    private static final String PREFIX = "stockade runtime tui: ";

    private TerminalChat() {
    }

    /** Connects to the runtime at {@code url} and runs until the person leaves; the process's exit status. */
    public static int run(String url, PrintStream err) {
        AgentClient client;
        Profile profile;
        try {
            client = AgentClient.of(url);
            profile = client.profile();
        } catch (IllegalArgumentException e) {
            err.println(PREFIX + e.getMessage());
            return 2;
        } catch (RuntimeUnavailable e) {
            err.println(PREFIX + VisibleText.escape(e.getMessage()));
            return 2;
        }
        Terminal terminal;
        try {
            terminal = TerminalBuilder.builder().name("stockade").system(true).dumb(true).build();
        } catch (IOException e) {
            err.println(PREFIX + "cannot open the terminal (" + e.getClass().getSimpleName() + ")");
            return 1;
        }
        String failure;
        try (terminal) {
            return converse(terminal, client, profile);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (RuntimeException | IOException e) {
            failure = e.getClass().getSimpleName();
        }
        // after the terminal was closed (restored), so that the line reaches a terminal in its own mode
        err.println(PREFIX + "stopped by an internal error (" + failure + ")");
        return 1;
    }

    private static int converse(Terminal terminal, AgentClient client, Profile profile) throws InterruptedException {
        Screen screen = new Screen(terminal);
        ChatSession session = new ChatSession(client, screen);
        terminal.handle(Terminal.Signal.INT, signal -> session.interrupt());
        LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("stockade")
                .completer(new CommandCompleter())
                // `!` in a message is text, not a history reference
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .variable(LineReader.HISTORY_SIZE, 1000)
                .build();
        screen.line(Tone.DIM, profile.name() + " at " + client.shown() + " (lock " + (profile.lockedIn() ? "on" : "off")
                + ", verbose " + (profile.verbose() ? "on" : "off") + "); /help lists the commands");
        for (;;) {
            String line;
            try {
                line = reader.readLine("> ");
            } catch (UserInterruptException | EndOfFileException e) {
                return 0;
            }
            if (!session.handle(Input.parse(line))) {
                return 0;
            }
        }
    }
}

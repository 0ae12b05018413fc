package dev.stockade.runtime.tui;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.Map;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * Where the terminal UI prints, between prompts. Every text passes {@link VisibleText#escape} here, at the one
 * sink, so nothing the runtime sends can reach the terminal as a control sequence; styles are added after escaping.
 * Widths are read from the terminal at each use, so a resized window is followed.
 */
final class Screen {
    /** How a line is shown. */
    enum Tone { PLAIN, DIM, NOTICE, ERROR }

    private static final int FALLBACK_WIDTH = 80;
    private final Terminal terminal;
    private final PrintWriter out;
    private final Map<Tone, String[]> styles = new EnumMap<>(Tone.class);
    private boolean midLine;

    Screen(Terminal terminal) {
        this.terminal = terminal;
        this.out = terminal.writer();
    }

    /** The window's width in columns now (80 when the terminal cannot tell). */
    int width() {
        int w = terminal.getSize().getColumns();
        return w > 0 ? w : FALLBACK_WIDTH;
    }

    /** One line (or several, when {@code text} holds newlines), ending any piece printed before it. */
    synchronized void line(Tone tone, String text) {
        endLine();
        out.println(styled(tone, VisibleText.escape(text)));
        out.flush();
    }

    /** A piece of a reply as it arrives, without a line end. */
    synchronized void piece(String text) {
        if (text.isEmpty()) {
            return;
        }
        String shown = VisibleText.escape(text);
        out.print(shown);
        out.flush();
        midLine = !shown.endsWith("\n");
    }

    /** Ends a line of pieces, if one is open. */
    synchronized void endLine() {
        if (midLine) {
            out.println();
            midLine = false;
        }
    }

    /** A rule across the window with {@code title} in it, clipped to fit: {@code ── title ─────}. */
    void rule(String title) {
        int w = width();
        String head = "── " + clip(title, Math.max(1, w - 6)) + " ";
        int used = columns(head);
        line(Tone.DIM, head + "─".repeat(Math.max(0, w - used)));
    }

    /** {@code text} escaped and cut to {@code max} columns (wide characters count two), marked with … when cut. */
    static String clip(String text, int max) {
        String shown = VisibleText.escape(text).replace('\n', ' ').replace('\t', ' ');
        AttributedString s = new AttributedString(shown);
        if (s.columnLength() <= max) {
            return shown;
        }
        return s.columnSubSequence(0, Math.max(0, max - 1)).toString() + "…";
    }

    /** The columns {@code text} takes on a terminal. */
    static int columns(String text) {
        return new AttributedString(text).columnLength();
    }

    /**
     * {@code text} between the terminal's sequences for {@code tone}. JLine renders the style (colours the terminal
     * has); the text itself is placed outside its rendering, which would turn box-drawing characters of a reply into
     * ASCII or the alternate character set.
     */
    private String styled(Tone tone, String text) {
        String[] around = styles.computeIfAbsent(tone, this::around);
        return around[0] + text + around[1];
    }

    private String[] around(Tone tone) {
        AttributedStyle style = switch (tone) {
            case DIM -> AttributedStyle.DEFAULT.faint();
            case NOTICE -> AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
            case ERROR -> AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
            case PLAIN -> AttributedStyle.DEFAULT;
        };
        String type = terminal.getType();
        if (tone == Tone.PLAIN || Terminal.TYPE_DUMB.equals(type) || Terminal.TYPE_DUMB_COLOR.equals(type)) {
            return new String[] {"", ""};
        }
        String sample = new AttributedString("x", style).toAnsi(terminal);
        int at = sample.indexOf('x');
        return new String[] {sample.substring(0, at), sample.substring(at + 1)};
    }
}

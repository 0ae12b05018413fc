package dev.stockade.runtime.tui;

import dev.stockade.runtime.tui.Screen.Tone;

/**
 * Prints a streamed turn as it arrives: pieces of a step as the model writes them (verbose), whole steps otherwise,
 * a line per tool run, then how the turn ended. A CR at the end of a piece is held back until the next piece shows
 * whether it begins a line ending, so a CRLF split across two pieces is not shown as {@code ^M}.
 */
final class ReplyView {
    private final Screen screen;

    ReplyView(Screen screen) {
        this.screen = screen;
    }

    /** Follows {@code stream} until the turn ends, fails, or the person detaches. */
    void follow(ReplyStream stream) throws InterruptedException {
        boolean pieces = false;
        String heldCr = "";
        for (;;) {
            TurnEvent e = stream.next();
            if (e instanceof TurnEvent.Delta d) {
                String text = heldCr + d.text();
                heldCr = text.endsWith("\r") ? "\r" : "";
                screen.piece(text.substring(0, text.length() - heldCr.length()));
                pieces = true;
            } else if (e instanceof TurnEvent.Step s) {
                if (pieces) {
                    screen.piece(heldCr);
                    screen.endLine();
                } else {
                    screen.line(Tone.PLAIN, s.text());
                }
                pieces = false;
                heldCr = "";
            } else if (e instanceof TurnEvent.ToolRan t) {
                screen.line(Tone.DIM, "  · " + t.name() + (t.error() ? " (refused or failed)" : ""));
            } else if (e instanceof TurnEvent.Done done) {
                ended(done);
                return;
            } else if (e instanceof TurnEvent.Failed f) {
                screen.line(Tone.ERROR, "! " + f.reason());
                return;
            } else if (e instanceof TurnEvent.Detached) {
                screen.line(Tone.NOTICE, "stopped following the reply; the agent still finishes and stores the turn "
                        + "(/resume shows it)");
                return;
            }
        }
    }

    private void ended(TurnEvent.Done done) {
        screen.endLine();
        if (done.compacted()) {
            screen.line(Tone.NOTICE, "older messages of this thread were summarised");
        }
        if (done.contextPercent() != null) {
            screen.line(Tone.DIM, "  context " + done.contextPercent() + "%");
        }
    }
}

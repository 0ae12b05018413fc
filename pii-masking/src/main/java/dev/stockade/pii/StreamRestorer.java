package dev.stockade.pii;

import dev.stockade.pii.internal.PlaceholderSyntax;

/**
 * Restores placeholders in a text that arrives in chunks. It holds back at most
 * {@link PlaceholderSyntax#MAX_LENGTH} - 1 characters, and only while they could still become a placeholder,
 * so a placeholder split across chunks or events is restored whole and the look-behind stays bounded. Values go in
 * written for the stream's {@link TextForm}. Not thread-safe: one per stream.
 */
public final class StreamRestorer {

    private final Restorer restorer;
    private final TextForm form;
    private final StringBuilder pending = new StringBuilder(PlaceholderSyntax.MAX_LENGTH);
    private boolean finished;

    StreamRestorer(Restorer restorer, TextForm form) {
        this.restorer = restorer;
        this.form = form;
    }

    /** The restored text that is safe to emit now; may be empty while a possible placeholder is held back. */
    public String push(CharSequence chunk) {
        if (finished) {
            throw new IllegalStateException("stream already finished");
        }
        pending.append(chunk);
        StringBuilder out = new StringBuilder(pending.length());
        int i = 0;
        while (i < pending.length()) {
            if (pending.charAt(i) != '[') {
                out.append(pending.charAt(i++));
                continue;
            }
            int len = PlaceholderSyntax.match(pending, i);
            if (len < 0) {
                break;
            }
            if (len > 0) {
                out.append(restorer.lookup(pending.substring(i, i + len), form));
                i += len;
            } else {
                out.append(pending.charAt(i++));
            }
        }
        pending.delete(0, i);
        return out.toString();
    }

    /** Characters held back, waiting for the next chunk; never more than a placeholder's length. */
    public int heldBack() {
        return pending.length();
    }

    /** Ends the stream and returns what was held back, as it came (it never became a placeholder). */
    public String finish() {
        finished = true;
        String rest = pending.toString();
        pending.setLength(0);
        return rest;
    }
}

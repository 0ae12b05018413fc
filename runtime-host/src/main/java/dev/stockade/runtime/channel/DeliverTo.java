package dev.stockade.runtime.channel;

import java.util.Locale;

/** Where a subscription's results go and are stored. */
public enum DeliverTo {
    /** Web chat plus Slack, like a heartbeat alert (the default). */
    ALL("all"),
    /** Web chat only. */
    CHAT("chat"),
    /** Slack only; falls back to web chat with a warning when no Slack destination is linked. */
    SLACK("slack");

    private final String wire;

    DeliverTo(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** Parses the wire form (also accepting the UI's "All channels"); {@code null} when unknown. */
    public static DeliverTo parse(String s) {
        if (s == null) {
            return null;
        }
        String v = s.strip().toLowerCase(Locale.ROOT);
        if (v.equals("all channels")) {
            return ALL;
        }
        for (DeliverTo d : values()) {
            if (d.wire.equals(v)) {
                return d;
            }
        }
        return null;
    }
}

package dev.stockade.runtime.agent;

import java.util.Locale;

/** The agent's documents; all but the Agent Guide are frozen while locked, the Guide always read-only. */
public enum DocumentKind {
    SOUL("soul", "Soul"),
    USER("user", "User"),
    MEMORY_SUMMARY("memory-summary", "Memory summary"),
    VISION("vision", "Vision"),
    HEARTBEAT_CONFIG("heartbeat-config", "Heartbeat config"),
    BOOTSTRAP("bootstrap", "Bootstrap"),
    AGENT_GUIDE("agent-guide", "Agent Guide");

    private final String wire;
    private final String title;

    DocumentKind(String wire, String title) {
        this.wire = wire;
        this.title = title;
    }

    public String wire() {
        return wire;
    }

    public String title() {
        return title;
    }

    /** Whether anyone but the runtime's build may change it. */
    public boolean writable() {
        return this != AGENT_GUIDE;
    }

    public static DocumentKind parse(String s) {
        if (s == null) {
            return null;
        }
        String v = s.strip().toLowerCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
        for (DocumentKind k : values()) {
            if (k.wire.equals(v)) {
                return k;
            }
        }
        return null;
    }
}

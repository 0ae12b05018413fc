package dev.stockade.runtime.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Set;

/**
 * Structured logs, always on: one JSON object per line on standard error with a time, a level, an
 * event name and fields. Callers pass identifiers, flags and counts; never a credential. A field named like one of
 * the line's own keys ({@code ts}, {@code level}, {@code event}) is written as {@code field.<name>}.
 */
public final class Log {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> RESERVED = Set.of("ts", "level", "event");
    private static volatile PrintStream out = System.err;

    private Log() {
    }

    /** Redirects log lines (tests capture them to check what is and is not logged). */
    public static void to(PrintStream stream) {
        out = stream;
    }

    public static void info(String event, Object... fields) {
        write("info", event, fields);
    }

    public static void warn(String event, Object... fields) {
        write("warn", event, fields);
    }

    public static void error(String event, Object... fields) {
        write("error", event, fields);
    }

    private static void write(String level, String event, Object... fields) {
        ObjectNode n = JSON.createObjectNode();
        n.put("ts", Instant.now().toString());
        n.put("level", level);
        n.put("event", event);
        for (int i = 0; i + 1 < fields.length; i += 2) {
            Object v = fields[i + 1];
            String k = String.valueOf(fields[i]);
            if (RESERVED.contains(k)) {
                k = "field." + k; // a field never replaces the line's own time, level or event name
            }
            if (v == null) {
                n.putNull(k);
            } else if (v instanceof Integer || v instanceof Long) {
                n.put(k, ((Number) v).longValue());
            } else if (v instanceof Number num) {
                n.put(k, num.doubleValue());
            } else if (v instanceof Boolean b) {
                n.put(k, b);
            } else {
                n.put(k, String.valueOf(v));
            }
        }
        PrintStream s = out;
        synchronized (s) {
            s.println(n);
        }
    }
}

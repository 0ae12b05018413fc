package dev.stockade.api.sandbox;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The units sandbox fields are written in: CPU as Kubernetes writes it ({@code 2}, {@code 0.5}, {@code 500m}),
 * memory with binary or decimal suffixes ({@code 512Mi}, {@code 2Gi}, {@code 1G}), durations with a unit suffix
 * ({@code 30m}, {@code 12h}, {@code 7d}, {@code 2w}). Each parser returns -1 for text it does not accept.
 */
final class Quantities {
    private static final Pattern CPU = Pattern.compile("(\\d{1,6})(?:\\.(\\d{1,3}))?|(\\d{1,9})m");
    private static final Pattern MEMORY = Pattern.compile("(\\d{1,12})(Ki|Mi|Gi|Ti|K|M|G|T)?");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,6})(m|h|d|w)");

    private Quantities() {
    }

    static long cpuMillis(String text) {
        Matcher m = CPU.matcher(text);
        if (!m.matches()) {
            return -1;
        }
        if (m.group(3) != null) {
            return Long.parseLong(m.group(3));
        }
        String frac = m.group(2) == null ? "" : m.group(2);
        return Long.parseLong(m.group(1)) * 1000 + (frac.isEmpty() ? 0 : Long.parseLong((frac + "00").substring(0, 3)));
    }

    static long memoryBytes(String text) {
        Matcher m = MEMORY.matcher(text);
        if (!m.matches()) {
            return -1;
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2);
        long factor = switch (unit) {
            case "Ki" -> 1L << 10;
            case "Mi" -> 1L << 20;
            case "Gi" -> 1L << 30;
            case "Ti" -> 1L << 40;
            case "K" -> 1_000L;
            case "M" -> 1_000_000L;
            case "G" -> 1_000_000_000L;
            case "T" -> 1_000_000_000_000L;
            default -> 1L;
        };
        return n > Long.MAX_VALUE / factor ? -1 : n * factor;
    }

    /** A duration of at least one minute; null for text that is not one. */
    static Duration duration(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofDays(7 * n);
        };
    }

    /** The shortest text of {@code d} in the accepted units. */
    static String text(Duration d) {
        long minutes = d.toMinutes();
        if (minutes % (7 * 24 * 60) == 0) {
            return minutes / (7 * 24 * 60) + "w";
        }
        if (minutes % (24 * 60) == 0) {
            return minutes / (24 * 60) + "d";
        }
        return minutes % 60 == 0 ? minutes / 60 + "h" : minutes + "m";
    }
}

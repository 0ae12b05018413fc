package dev.stockade.api;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * PostgreSQL's {@code statement_timeout} for every pooled connection of a replica ({@code stockade serve
 * --database-statement-timeout}): a statement stuck behind a lock or a runaway query is cancelled with an error instead
 * of holding a connection of the pool forever. Zero means no bound.
 */
public record StatementTimeout(Duration value) {
    /** One minute: far above any request's statements, short enough to free a wedged pool. */
    public static final StatementTimeout DEFAULT = new StatementTimeout(Duration.ofMinutes(1));
    private static final Pattern TEXT = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

    public StatementTimeout {
        if (value.isNegative() || value.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("a statement timeout is 0 to 24h");
        }
    }

    /** Reads {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h} or {@code 0}; a bare number is seconds. */
    public static StatementTimeout parse(String text) {
        Matcher m = TEXT.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("`" + text + "` is not a duration: use 500ms, 30s, 2m, 1h or 0");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration d = switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
        return new StatementTimeout(d);
    }

    /** The SQL each new pooled connection runs first (milliseconds: no unit to quote). */
    public String initSql() {
        return "SET statement_timeout = " + value.toMillis();
    }

    @Override
    public String toString() {
        return value.isZero() ? "0" : value.toMillis() % 1000 != 0 ? value.toMillis() + "ms"
                : value.toSeconds() % 60 != 0 ? value.toSeconds() + "s" : value.toMinutes() + "m";
    }

    /** Reads the option's text for picocli; a bad value is a usage error naming the option. */
    public static final class Converter implements CommandLine.ITypeConverter<StatementTimeout> {
        @Override
        public StatementTimeout convert(String text) {
            try {
                return parse(text);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}

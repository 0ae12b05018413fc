package dev.stockade.cli.rest;

import dev.stockade.policy.text.Quoted;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Points in time given on the command line: an ISO 8601 instant, a date (midnight UTC) or a duration from now. */
final class Times {
    private static final Pattern RELATIVE = Pattern.compile("(\\d{1,6})([smhdw])");

    private Times() {
    }

    /**
     * Parses {@code value} for {@code option}; a duration such as {@code 30d} counts forward from {@code now} when
     * {@code future} (expiry), backward otherwise ({@code --since}).
     */
    static Instant parse(String option, String value, boolean future, Instant now) {
        String v = value.trim();
        Matcher m = RELATIVE.matcher(v);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            };
            // the platform stores microseconds and refuses finer times rather than rounding them (docs/semantics.md)
            Instant base = now.truncatedTo(ChronoUnit.MICROS);
            return future ? base.plus(d) : base.minus(d);
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException notInstant) {
            try {
                return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeParseException notDate) {
                throw Failure.usage(Quoted.input(option) + " must be an ISO 8601 instant (2026-12-31T09:00:00Z), a date"
                        + " (2026-12-31, midnight UTC) or a duration such as 30d, 12h, 15m, 2w; got " + Quoted.input(v, Text::safe));
            }
        }
    }
}

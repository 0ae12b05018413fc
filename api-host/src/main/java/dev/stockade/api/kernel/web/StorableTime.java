package dev.stockade.api.kernel.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;

/**
 * The rule for times the platform accepts: from {@code 0001-01-01T00:00:00Z} to {@code 9999-12-31T23:59:59.999999Z},
 * to the microsecond. PostgreSQL's {@code timestamptz} stores microseconds (a finer time would be rounded, silently)
 * and a narrower range than Java ({@code +999999999-12-31} failed in the database as a 500); four-digit years are also
 * what every client's date type and ISO 8601 without expansion can write back.
 */
public final class StorableTime {
    static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999Z");

    private StorableTime() {
    }

    /** Why {@code t} cannot be stored as it is, or {@code null} when it can. */
    public static String flaw(Instant t) {
        if (t.isBefore(FIRST) || t.isAfter(LAST)) {
            return "is outside the times the platform stores (years 0001 to 9999, UTC)";
        }
        if (t.getNano() % 1000 != 0) {
            return "is finer than a microsecond, which the platform would round";
        }
        return null;
    }

    /** The instant a bound time value stands for (a date or a local time is read in UTC), or null for another type. */
    static Instant instant(Object value) {
        if (value instanceof Instant i) {
            return i;
        }
        if (value instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (value instanceof ZonedDateTime z) {
            return z.toInstant();
        }
        if (value instanceof LocalDateTime l) {
            return l.toInstant(ZoneOffset.UTC);
        }
        if (value instanceof LocalDate d) {
            return d.atStartOfDay().toInstant(ZoneOffset.UTC);
        }
        return null;
    }

    /** Wraps the deserializer of every time type so that a bound time outside the rule is refused with its pointer. */
    static CheckedDeserializers modifier() {
        return new CheckedDeserializers((description, deserializer) ->
                Temporal.class.isAssignableFrom(description.getBeanClass()), StorableTime::checked);
    }

    private static Object checked(JsonDeserializer<?> delegate, JsonParser p, DeserializationContext ctxt)
            throws IOException {
        Object value = delegate.deserialize(p, ctxt);
        Instant t = instant(value);
        String why = t == null ? null : flaw(t);
        if (why != null) {
            String pointer = p.getParsingContext().pathAsPointer().toString();
            throw new RefusedValue(p, pointer, "out-of-range",
                    "`" + Text.clip(StorableText.printable(pointer)) + "` " + why);
        }
        return value;
    }
}

package dev.stockade.policy.compiler;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;

/**
 * The period a spending limit counts over: a calendar day or a calendar month in UTC, half open: a call at exactly
 * midnight UTC counts toward the period that begins then. In the core because which spend counts against a limit is
 * part of the admission rule ({@link SpendDecision}).
 */
public enum SpendPeriod {
    /** A calendar day in UTC. */
    DAY("day"),
    /** A calendar month in UTC. */
    MONTH("month");

    private final String wire;

    SpendPeriod(String wire) {
        this.wire = wire;
    }

    /** The name in the API and the database: {@code day} or {@code month}. */
    public String wire() {
        return wire;
    }

    /** The period named {@code wire}, or empty. */
    public static Optional<SpendPeriod> of(String wire) {
        return Arrays.stream(values()).filter(p -> p.wire.equals(wire)).findFirst();
    }

    /** The start of the period that holds {@code at} (inclusive). */
    public Instant start(Instant at) {
        ZonedDateTime day = at.atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS);
        return (this == DAY ? day : day.withDayOfMonth(1)).toInstant();
    }

    /** The end of the period that holds {@code at} (exclusive): the start of the next. */
    public Instant end(Instant at) {
        ZonedDateTime start = start(at).atZone(ZoneOffset.UTC);
        return (this == DAY ? start.plusDays(1) : start.plusMonths(1)).toInstant();
    }
}

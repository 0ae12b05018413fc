package dev.stockade.proxy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** An audit sink that keeps lines in memory and lets a test wait (bounded) for one to arrive. */
final class AuditCollector implements AuditSink {
    private final List<AuditEvent> events = new ArrayList<>();

    @Override
    public synchronized void record(AuditEvent event) {
        events.add(event);
        notifyAll();
    }

    synchronized List<AuditEvent> all() {
        return List.copyOf(events);
    }

    /** The first line matching, waiting up to {@code timeout}; fails the test when none arrives. */
    synchronized AuditEvent await(Predicate<AuditEvent> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (AuditEvent e : events) {
                if (match.test(e)) {
                    return e;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no matching audit line in " + timeout + "; have " + events);
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }
}

package dev.stockade.runtime.store;

import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Decides who uses the store's one connection next. A webhook delivery waiting for its acceptance (the
 * {@link Store.Lane#INTAKE} lane) goes before every waiting run step, schedule or other ordinary transaction, so that
 * a storm of runs, each a score of small transactions, cannot put an acceptance at the back of a queue. Within a
 * lane, turns are taken in arrival order, as with the fair lock this replaces.
 *
 * <p>Ordinary work waits as long as intake is waiting: sustained intake past the connection's capacity pauses runs,
 * and the bound of pending runs per subscription then answers {@code 429}.
 */
final class ConnectionTurns {
    private final ReentrantLock lock = new ReentrantLock();
    // One condition per waiting caller, in arrival order per lane: a hand-off wakes exactly the caller whose turn it
    // is (waking a whole lane cost every run thread a context switch per transaction).
    private final Map<Store.Lane, ArrayDeque<Condition>> queues = new EnumMap<>(Store.Lane.class);
    private Thread holder;

    ConnectionTurns() {
        for (Store.Lane lane : Store.Lane.values()) {
            queues.put(lane, new ArrayDeque<>());
        }
    }

    /**
     * Waits for the connection in {@code lane}. A thread already holding it is refused: a transaction inside a
     * transaction would commit its outer one early.
     */
    void acquire(Store.Lane lane) {
        lock.lock();
        try {
            Thread me = Thread.currentThread();
            if (holder == me) {
                throw new IllegalStateException("a store transaction cannot be opened inside another");
            }
            ArrayDeque<Condition> queue = queues.get(lane);
            if (holder != null || !queue.isEmpty() || yieldsToIntake(lane)) {
                Condition turn = lock.newCondition();
                queue.addLast(turn);
                while (holder != null || queue.peekFirst() != turn || yieldsToIntake(lane)) {
                    turn.awaitUninterruptibly();
                }
                queue.removeFirst();
            }
            holder = me;
        } finally {
            lock.unlock();
        }
    }

    /** Hands the connection on: to the oldest waiting intake caller if there is one, else to ordinary work. */
    void release() {
        lock.lock();
        try {
            if (holder != Thread.currentThread()) {
                throw new IllegalMonitorStateException("the connection is not held by this thread");
            }
            holder = null;
            Condition next = queues.get(Store.Lane.INTAKE).peekFirst();
            if (next == null) {
                next = queues.get(Store.Lane.ORDINARY).peekFirst();
            }
            if (next != null) {
                next.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean yieldsToIntake(Store.Lane lane) {
        return lane == Store.Lane.ORDINARY && !queues.get(Store.Lane.INTAKE).isEmpty();
    }

    /** How many callers wait in {@code lane} now (tests wait on it instead of guessing when a thread has queued). */
    int waiters(Store.Lane lane) {
        lock.lock();
        try {
            return queues.get(lane).size();
        } finally {
            lock.unlock();
        }
    }
}

package dev.stockade.api.connectors;

import java.util.ArrayList;
import java.util.List;

/**
 * Cancels a connector call in flight (an organization halted under it): what is registered runs once, at
 * cancellation, or at once when registered after it.
 */
public final class Cancellation {
    private final List<Runnable> actions = new ArrayList<>();
    private boolean cancelled;

    /** A cancellation nobody will trigger (discovery, tests of a connection). */
    public static Cancellation none() {
        return new Cancellation();
    }

    public void onCancel(Runnable action) {
        boolean now;
        synchronized (this) {
            now = cancelled;
            if (!now) {
                actions.add(action);
            }
        }
        if (now) {
            action.run();
        }
    }

    public void cancel() {
        List<Runnable> run;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            run = List.copyOf(actions);
            actions.clear();
        }
        run.forEach(Runnable::run);
    }

    public synchronized boolean cancelled() {
        return cancelled;
    }
}

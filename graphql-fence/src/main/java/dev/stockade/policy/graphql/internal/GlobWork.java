package dev.stockade.policy.graphql.internal;

import dev.stockade.policy.glob.Glob;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The glob matching of one request: each (glob, text) pair is matched once however many aliases or
 * fields repeat it, and what is matched is charged at {@link Glob#cost} against a bound, so that an agent
 * cannot buy unbounded CPU with many aliases of one large variable. Not thread-safe: one per judgement.
 */
public final class GlobWork {
    /** Texts shorter than this are matched again rather than looked up (a lookup costs about as much). */
    private static final int MEMO_FROM = 64;

    private final long budget;
    private long spent;
    private Map<Glob, Map<String, Boolean>> memo;

    /** Work for one request, at most {@code budget} word operations. */
    public GlobWork(long budget) {
        this.budget = budget;
    }

    /** Whether {@code glob} matches {@code text}; {@code null} when matching it would exceed the bound. */
    public Boolean matches(Glob glob, String text) {
        if (text.length() < MEMO_FROM) {
            return charge(glob.cost(text.length())) ? glob.matches(text) : null;
        }
        if (memo == null) {
            memo = new IdentityHashMap<>();
        }
        Map<String, Boolean> seen = memo.computeIfAbsent(glob, g -> new HashMap<>());
        Boolean known = seen.get(text);
        if (known != null) {
            return known;
        }
        if (!charge(glob.cost(text.length()))) {
            return null;
        }
        boolean result = glob.matches(text);
        seen.put(text, result);
        return result;
    }

    private boolean charge(long cost) {
        if (cost > budget - spent) {
            return false;
        }
        spent += cost;
        return true;
    }

    /** Word operations charged so far. */
    public long spent() {
        return spent;
    }
}

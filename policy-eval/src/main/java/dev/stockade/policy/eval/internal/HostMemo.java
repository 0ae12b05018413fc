package dev.stockade.policy.eval.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded memo of recent hosts (each on a port, or on {@link dev.stockade.policy.glob.HostPort#ANY} when the
 * program names no port) and where the index placed them, so that a host seen before costs one hash probe
 * and one {@code equals}, whatever patterns the policy holds. Each program has its own (a
 * reload starts empty), and a host's answer never changes within a program, so the memo can only be
 * late, never wrong.
 *
 * <p>Two-way set-associative, fixed size, allocation-free: a slot keeps a reference to the caller's
 * host string and an int, published under a per-slot sequence stamp (a seqlock). A reader that sees the
 * stamp change while it reads, or odd (a write in progress), treats the slot as empty; a writer that
 * loses the race for a slot does not write. Host strings are immutable, so a key read under a stable
 * stamp is a whole string.
 *
 * <p>INVARIANT: {@code rows[i]} is the answer for {@code keys[i]} on {@code ports[i]} whenever
 * {@code stamps[i]} is even and equal before and after all three were read.
 */
final class HostMemo {
    private static final VarHandle STAMPS = MethodHandles.arrayElementVarHandle(int[].class);
    /** The index answers hosts this long with a deny; keeping them would only pin memory. */
    private static final int LONGEST_KEY = 253;

    private final int mask;
    private final int[] stamps;
    private final String[] keys;
    private final int[] ports;
    private final int[] rows;

    /** A memo of {@code slots} entries (rounded up to a power of two, at least 2). */
    HostMemo(int slots) {
        int size = Math.max(2, Integer.highestOneBit(Math.max(1, slots - 1)) << 1);
        mask = size - 1;
        stamps = new int[size];
        keys = new String[size];
        ports = new int[size];
        rows = new int[size];
    }

    private static int spread(String host, int port) {
        int h = host.hashCode() + port * 0x61C88647;
        return (h ^ (h >>> 16)) & ~1; // the even slot of the pair
    }

    /** The answer memoised for {@code host} on {@code port}, or {@code miss}. */
    int get(String host, int port, int miss) {
        int pair = spread(host, port) & mask;
        int found = read(pair, host, port, miss);
        return found != miss ? found : read(pair + 1, host, port, miss);
    }

    private int read(int slot, String host, int port, int miss) {
        int before = (int) STAMPS.getAcquire(stamps, slot);
        if ((before & 1) != 0) {
            return miss;
        }
        String key = keys[slot];
        int keyPort = ports[slot];
        int row = rows[slot];
        VarHandle.loadLoadFence();
        if ((int) STAMPS.getOpaque(stamps, slot) != before || key == null || keyPort != port || !key.equals(host)) {
            return miss;
        }
        return row;
    }

    /** Remembers {@code row} for {@code host} on {@code port}, unless another thread is writing the same slot. */
    void put(String host, int port, int row) {
        if (host.length() > LONGEST_KEY) {
            return;
        }
        int pair = spread(host, port) & mask;
        // fill an empty way first; otherwise replace the odd way, so the even one keeps the older host
        int slot = keys[pair] == null ? pair : pair + 1;
        int stamp = (int) STAMPS.getAcquire(stamps, slot);
        if ((stamp & 1) != 0 || !STAMPS.compareAndSet(stamps, slot, stamp, stamp + 1)) {
            return;
        }
        keys[slot] = host;
        ports[slot] = port;
        rows[slot] = row;
        STAMPS.setRelease(stamps, slot, stamp + 2);
    }
}

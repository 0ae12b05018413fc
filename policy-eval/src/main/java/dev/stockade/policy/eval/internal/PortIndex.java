package dev.stockade.policy.eval.internal;

import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.HostPort;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Finds the first row for a host on a port (docs/semantics.md, "Ports"). Rows whose patterns name no port
 * are placed by one index; the rows of each port named by some pattern by an index of their own; the
 * first row is the lower of the two answers. When neither matches and the default denies, a third index
 * over every ported row finds an entry naming the host on another port, for {@code port-not-allowed}.
 * One memo keeps the final answer per host (and per port when the program names ports), so a host seen
 * before costs one probe with ports or without; a program without ports pays one length check for them.
 *
 * <p>INVARIANT: every row is in exactly one of the first indexes: its port's, or the portless one.
 */
final class PortIndex {
    /** Not in the memo: no answer is this low ({@link #otherPort} of the last possible row is above it). */
    private static final int MISS = Integer.MIN_VALUE;

    private final Placement anyPort;
    /** The distinct ports rows name, ascending; empty when none does. */
    private final int[] ports;
    private final Placement[] onPort;
    /** Every row naming a port, whatever the port; null when none does or the default allows. */
    private final Placement named;
    /** Recent answers; null when the options turn it off. */
    private final HostMemo memo;

    /**
     * The index of {@code rows}; {@code rowPorts[i]} is row i's port, {@link HostPort#ANY} for every port;
     * {@code hintOtherPorts} when the default denies, so that a miss looks for the host on other ports.
     */
    PortIndex(List<List<DomainPattern>> rows, int[] rowPorts, boolean hintOtherPorts, int memoSlots) {
        TreeMap<Integer, List<Integer>> byPort = new TreeMap<>();
        List<Integer> portless = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            (rowPorts[i] == HostPort.ANY ? portless : byPort.computeIfAbsent(rowPorts[i], p -> new ArrayList<>())).add(i);
        }
        ports = byPort.keySet().stream().mapToInt(Integer::intValue).toArray();
        memo = memoSlots == 0 ? null : new HostMemo(memoSlots);
        anyPort = ports.length == 0 ? new Placement(rows, null) : placement(rows, portless);
        onPort = new Placement[ports.length];
        List<Integer> all = new ArrayList<>();
        for (int k = 0; k < ports.length; k++) {
            onPort[k] = placement(rows, byPort.get(ports[k]));
            all.addAll(byPort.get(ports[k]));
        }
        all.sort(null);
        named = ports.length == 0 || !hintOtherPorts ? null : placement(rows, all);
    }

    private static Placement placement(List<List<DomainPattern>> rows, List<Integer> ids) {
        List<List<DomainPattern>> sub = new ArrayList<>(ids.size());
        for (int id : ids) {
            sub.add(rows.get(id));
        }
        return new Placement(sub, ids.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The answer {@link #find} gives when no row matched but {@code row} names the host on another port. */
    static int otherPort(int row) {
        return -2 - row;
    }

    /** The row of an answer below {@link HostName#INVALID}: see {@link #otherPort}. */
    static int otherPortRow(int answer) {
        return -2 - answer;
    }

    /**
     * The first row for {@code host} on {@code port}; or {@link DomainIndex#NONE}; or {@link #otherPort} of
     * the first row naming the host on another port; or {@link HostName#INVALID}.
     */
    int find(String host, int port) {
        if (host == null) {
            return HostName.INVALID;
        }
        int key = ports.length == 0 ? HostPort.ANY : port; // without ports, one entry per host serves every port
        int found = memo == null ? MISS : memo.get(host, key, MISS);
        if (found == MISS) {
            found = place(host, port);
            if (memo != null) {
                memo.put(host, key, found);
            }
        }
        return found;
    }

    private int place(String host, int port) {
        int found = anyPort.find(host);
        if (ports.length == 0 || found == HostName.INVALID) {
            return found;
        }
        int k = java.util.Arrays.binarySearch(ports, port);
        if (k >= 0) {
            int on = onPort[k].find(host);
            found = on == HostName.INVALID ? on : Math.min(found, on);
        }
        if (found != DomainIndex.NONE || named == null) {
            return found;
        }
        int other = named.find(host);
        return other >= 0 && other != DomainIndex.NONE ? otherPort(other) : found;
    }
}

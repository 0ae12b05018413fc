package dev.stockade.policy.eval.internal;

import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.HostPort;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Finds the first row for a host on a port (docs/semantics.md, "Ports"). Rows whose patterns name no port
 * are placed by one index; the rows of each port named by some pattern by an index of their own; the
 * first row is the lower of the two answers. A program without ports has the one index and pays one
 * length check for them; a port costs one binary search over the distinct ports and a second lookup.
 *
 * <p>INVARIANT: every row is in exactly one index: the port index of its port, or the portless one.
 */
final class PortIndex {
    /** The memo of each port's index, when there are few enough ports to give each one. */
    private static final int PORT_MEMO_SLOTS = 1024;
    private static final int MAX_PORTS_WITH_MEMO = 16;

    private final Placement anyPort;
    /** The distinct ports rows name, ascending; empty when none does. */
    private final int[] ports;
    private final Placement[] onPort;
    /** Every row naming a port, whatever the port: which entry names a host on another port. */
    private final Placement named;

    /** The index of {@code rows}; {@code rowPorts[i]} is row i's port, {@link HostPort#ANY} for every port. */
    PortIndex(List<List<DomainPattern>> rows, int[] rowPorts, int memoSlots) {
        TreeMap<Integer, List<Integer>> byPort = new TreeMap<>();
        List<Integer> portless = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            (rowPorts[i] == HostPort.ANY ? portless : byPort.computeIfAbsent(rowPorts[i], p -> new ArrayList<>())).add(i);
        }
        ports = byPort.keySet().stream().mapToInt(Integer::intValue).toArray();
        if (ports.length == 0) {
            anyPort = new Placement(rows, null, memoSlots);
            onPort = new Placement[0];
            named = null;
            return;
        }
        anyPort = placement(rows, portless, memoSlots);
        onPort = new Placement[ports.length];
        int portSlots = ports.length <= MAX_PORTS_WITH_MEMO ? Math.min(memoSlots, PORT_MEMO_SLOTS) : 0;
        List<Integer> all = new ArrayList<>();
        for (int k = 0; k < ports.length; k++) {
            List<Integer> ids = byPort.get(ports[k]);
            onPort[k] = placement(rows, ids, portSlots);
            all.addAll(ids);
        }
        all.sort(null);
        named = placement(rows, all, 0);
    }

    private static Placement placement(List<List<DomainPattern>> rows, List<Integer> ids, int memoSlots) {
        List<List<DomainPattern>> sub = new ArrayList<>(ids.size());
        for (int id : ids) {
            sub.add(rows.get(id));
        }
        return new Placement(sub, ids.stream().mapToInt(Integer::intValue).toArray(), memoSlots);
    }

    /** The first row for {@code host} on {@code port}, {@link DomainIndex#NONE}, or {@link HostName#INVALID}. */
    int find(String host, int port) {
        int found = anyPort.find(host);
        if (ports.length == 0 || found == HostName.INVALID) {
            return found;
        }
        int k = Arrays.binarySearch(ports, port);
        if (k < 0) {
            return found;
        }
        int on = onPort[k].find(host);
        return on == HostName.INVALID ? on : Math.min(found, on);
    }

    /**
     * The first row naming {@code host} on some port, or {@link DomainIndex#NONE}: asked only when no row
     * matched the host on its port, to tell "not on this port" from "not listed".
     */
    int onOtherPort(String host) {
        if (named == null) {
            return DomainIndex.NONE;
        }
        int found = named.find(host);
        return found < 0 ? DomainIndex.NONE : found;
    }
}

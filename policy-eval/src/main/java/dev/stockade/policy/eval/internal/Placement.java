package dev.stockade.policy.eval.internal;

import dev.stockade.policy.glob.DomainPattern;
import java.util.List;

/**
 * Places a host among some of the program's rows: the domain index over them and the rows' indices in the
 * program (rows without a port, or the rows of one port: see {@link PortIndex}). Answers a program row,
 * {@link DomainIndex#NONE} or {@link HostName#INVALID}; the lowest row of the index is the lowest program
 * row because {@code ids} ascend.
 */
final class Placement {
    private final DomainIndex index;
    /** Program row of each index row; null when the index holds every row of the program. */
    private final int[] ids;

    /** A placement over {@code rows} (program rows {@code ids}, ascending; null: all of them in order). */
    Placement(List<List<DomainPattern>> rows, int[] ids) {
        this.index = new DomainIndex(rows);
        this.ids = ids;
    }

    /** The first row for {@code host} (not null), {@link DomainIndex#NONE}, or {@link HostName#INVALID}. */
    int find(String host) {
        int found = place(host);
        return ids == null || found < 0 || found == DomainIndex.NONE ? found : ids[found];
    }

    /** {@link #find} in index rows. */
    private int place(String host) {
        if (HostName.endsInNumber(host) && !HostName.isCanonicalIpv4(host)) {
            return placeParsed(host); // 2130706433, 127.1, 0x7f.1, 0177.0.0.1: an address, never a name
        }
        int hit = index.exact(host);
        if (hit != DomainIndex.ABSENT) {
            return hit; // a name some exact row holds is valid and normal by construction
        }
        int found = index.scan(host);
        if (found == DomainIndex.IPV4) {
            return index.ip(host);
        }
        if (found == DomainIndex.NOT_NORMAL || found == DomainIndex.INVALID) {
            return placeParsed(host);
        }
        return found;
    }

    /**
     * Upper case, a trailing dot, a non-ASCII name, an address in another form than a canonical dotted
     * quad, or something invalid: parsed once by the host grammar (this path allocates).
     */
    private int placeParsed(String text) {
        dev.stockade.policy.eval.HostName parsed = HostName.parse(text);
        if (parsed == null) {
            return HostName.INVALID;
        }
        if (parsed.isAddress()) {
            return index.ip(parsed.value());
        }
        String host = parsed.value();
        int hit = index.exact(host);
        if (hit != DomainIndex.ABSENT) {
            return hit;
        }
        int found = index.scan(host);
        return found < 0 ? HostName.INVALID : found;
    }
}

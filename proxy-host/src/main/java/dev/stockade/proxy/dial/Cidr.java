package dev.stockade.proxy.dial;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An address range {@code address/prefix}; IPv4 ranges match IPv4 addresses only. */
public record Cidr(byte[] network, int prefix) {

    /** Parses {@code 10.0.0.0/8} or {@code fc00::/7}; only IP literals, never DNS. */
    public static Cidr parse(String text) {
        int slash = text.indexOf('/');
        String addr = slash < 0 ? text.strip() : text.substring(0, slash).strip();
        byte[] bytes = IpLiterals.parse(addr);
        if (bytes == null) {
            throw new IllegalArgumentException("`" + text + "` is not an address range like `10.0.0.0/8`");
        }
        int prefix;
        try {
            prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(text.substring(slash + 1).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("`" + text + "` has a bad prefix length");
        }
        if (prefix < 0 || prefix > bytes.length * 8) {
            throw new IllegalArgumentException("`" + text + "` has a bad prefix length");
        }
        return new Cidr(bytes, prefix);
    }

    /** Whether the range holds the address. */
    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (a[full] & mask) == (network[full] & mask);
    }

    public static InetAddress toAddress(byte[] b) {
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}

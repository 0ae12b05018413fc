package dev.stockade.api.clusters;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * Reads the frame headers of one direction of an upgraded stream as its bytes pass, without holding them: a frame
 * whose payload is larger than the bound ends the stream before any of it is relayed, so neither side can make the
 * other buffer an unbounded frame through the platform. WebSocket headers are 2 to 14 bytes (RFC 6455 5.2), SPDY/3
 * headers 8 bytes with a 24-bit length, for control and data frames alike. Counts the bytes for the audit entry.
 */
final class FrameLimit extends ChannelInboundHandlerAdapter {
    /** Called once, on the channel's event loop, when a frame is over the bound. */
    interface Breach {
        void tooLarge(long payload);
    }

    private final StreamKind.Protocol protocol;
    private final long max;
    private final Breach breach;
    private final byte[] header = new byte[14];
    private int have;
    private long skip;
    private long bytes;
    private boolean breached;
    /** Stream-id bytes of the first SPDY SYN_STREAM still to read, and what they read so far. */
    private int idWanted;
    private int idRead;
    private volatile long firstStream = -1;

    FrameLimit(StreamKind.Protocol protocol, long max, Breach breach) {
        this.protocol = protocol;
        this.max = max;
        this.breach = breach;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (breached) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof ByteBuf buf) {
            bytes += buf.readableBytes();
            long over = scan(buf);
            if (over >= 0) {
                breached = true;
                ReferenceCountUtil.release(msg);
                breach.tooLarge(over);
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** Bytes seen in this direction so far. */
    long bytes() {
        return bytes;
    }

    /**
     * The stream id of the first SPDY {@code SYN_STREAM} seen in this direction, or -1: the stream a remote-command
     * client opens first is its error stream, where the status of the command goes (Kubernetes' remotecommand v2+).
     */
    long firstStream() {
        return firstStream;
    }

    /** Whether the bytes seen so far end exactly at a frame's end (a frame may be written after them). */
    boolean atBoundary() {
        return have == 0 && skip == 0 && !breached;
    }

    /** The payload length of the first frame over the bound, or -1 when every frame so far fits. */
    long scan(ByteBuf buf) {
        int i = buf.readerIndex();
        int end = buf.writerIndex();
        while (i < end) {
            if (skip > 0 && idWanted > 0) { // the first SYN_STREAM's stream id: its payload's first four bytes
                idRead = (idRead << 8) | (buf.getByte(i++) & 0xff);
                skip--;
                if (--idWanted == 0) {
                    firstStream = idRead & 0x7fffffffL;
                }
                continue;
            }
            if (skip > 0) {
                long n = Math.min(skip, end - i);
                skip -= n;
                i += (int) n;
                continue;
            }
            header[have++] = buf.getByte(i++);
            if (have >= 2 && have == headerLength()) {
                long payload = payloadLength();
                have = 0;
                if (payload < 0 || payload > max) {
                    return payload < 0 ? Long.MAX_VALUE : payload;
                }
                skip = payload;
                if (firstStream < 0 && idRead == 0 && payload >= 4 && synStream()) {
                    idWanted = 4;
                }
            }
        }
        return -1;
    }

    /** A SPDY control frame of type 1 (its first bit set, the type in bytes 2 and 3). */
    private boolean synStream() {
        return protocol == StreamKind.Protocol.SPDY && (header[0] & 0x80) != 0 && header[2] == 0 && header[3] == 1;
    }

    private int headerLength() {
        if (protocol == StreamKind.Protocol.SPDY) {
            return 8;
        }
        int len7 = header[1] & 0x7f;
        int extended = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
        return 2 + extended + ((header[1] & 0x80) != 0 ? 4 : 0);
    }

    private long payloadLength() {
        if (protocol == StreamKind.Protocol.SPDY) {
            return ((header[5] & 0xffL) << 16) | ((header[6] & 0xffL) << 8) | (header[7] & 0xffL);
        }
        int len7 = header[1] & 0x7f;
        if (len7 < 126) {
            return len7;
        }
        int count = len7 == 126 ? 2 : 8;
        long n = 0;
        for (int k = 0; k < count; k++) {
            n = (n << 8) | (header[2 + k] & 0xffL);
        }
        return n; // a 64-bit length with the top bit set reads negative: refused as too large
    }
}

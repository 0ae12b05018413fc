package dev.stockade.proxy.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * A channel's receive-buffer allocator that also counts every byte the channel takes in, whether it
 * was read into a buffer or moved by {@code splice(2)} (Netty reports both through
 * {@link RecvByteBufAllocator.Handle#lastBytesRead(int)}). A kernel-spliced direction never reaches
 * the pipeline, so this count is the only record of its bytes, for the audit line and the metrics.
 * One instance per channel, set before the channel's first read (Netty keeps the first handle it
 * gets); read and written on the channel's event loop only. Buffer sizes: 2 KiB up to
 * {@link Splice#LARGEST_READ}, starting at 16 KiB.
 */
public final class ReadCounter implements RecvByteBufAllocator {
    private final AdaptiveRecvByteBufAllocator sizes = new AdaptiveRecvByteBufAllocator(2048, 16 * 1024,
            Splice.LARGEST_READ);
    private long total;

    /** Bytes this channel has taken in so far. */
    public long total() {
        return total;
    }

    @Override
    @SuppressWarnings("deprecation") // the interface's own return type; the handle is an ExtendedHandle
    public Handle newHandle() {
        return new Counting((ExtendedHandle) sizes.newHandle());
    }

    private final class Counting implements ExtendedHandle {
        private final ExtendedHandle delegate;

        Counting(ExtendedHandle delegate) {
            this.delegate = delegate;
        }

        @Override
        public void lastBytesRead(int bytes) {
            if (bytes > 0) {
                total += bytes;
            }
            delegate.lastBytesRead(bytes);
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            return delegate.allocate(alloc);
        }

        @Override
        public int guess() {
            return delegate.guess();
        }

        @Override
        public void reset(ChannelConfig config) {
            delegate.reset(config);
        }

        @Override
        public void incMessagesRead(int numMessages) {
            delegate.incMessagesRead(numMessages);
        }

        @Override
        public int lastBytesRead() {
            return delegate.lastBytesRead();
        }

        @Override
        public void attemptedBytesRead(int bytes) {
            delegate.attemptedBytesRead(bytes);
        }

        @Override
        public int attemptedBytesRead() {
            return delegate.attemptedBytesRead();
        }

        @Override
        public boolean continueReading() {
            return delegate.continueReading();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return delegate.continueReading(maybeMoreDataSupplier);
        }

        @Override
        public void readComplete() {
            delegate.readComplete();
        }
    }
}

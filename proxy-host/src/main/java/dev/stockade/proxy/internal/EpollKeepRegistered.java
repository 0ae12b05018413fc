package dev.stockade.proxy.internal;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.util.concurrent.ThreadAwareExecutor;

/**
 * Netty's epoll I/O handler with one fix. Since netty/netty#16689 (4.2.13), a channel whose interest
 * set becomes empty (reads paused, its peer's FIN already seen, nothing waiting to be written) is
 * removed from the epoll set with {@code EPOLL_CTL_DEL}, but its registration still believes it is
 * added, so the next change (resume reading, or wait for room to write) is an {@code EPOLL_CTL_MOD}
 * that fails with {@code ENOENT} and closes the channel (seen up to 4.2.20). A half-closed tunnel
 * hits exactly that: the client sent its request and FIN, and the answer needs to wait for room.
 * Here an empty interest set is submitted as {@code EPOLLET} alone instead: the descriptor stays in
 * the set, asks for no event (an error or hang-up is still reported, once, being edge-triggered),
 * and the next change is a valid {@code EPOLL_CTL_MOD}.
 */
final class EpollKeepRegistered implements IoHandlerFactory {
    private final IoHandlerFactory epoll = EpollIoHandler.newFactory();

    @Override
    public IoHandler newHandler(ThreadAwareExecutor ioExecutor) {
        return new Handler(epoll.newHandler(ioExecutor));
    }

    @Override
    public boolean isChangingThreadSupported() {
        return epoll.isChangingThreadSupported();
    }

    private record Handler(IoHandler delegate) implements IoHandler {
        @Override
        public void initialize() {
            delegate.initialize();
        }

        @Override
        public int run(IoHandlerContext context) {
            return delegate.run(context);
        }

        @Override
        public void prepareToDestroy() {
            delegate.prepareToDestroy();
        }

        @Override
        public void destroy() {
            delegate.destroy();
        }

        @Override
        public IoRegistration register(IoHandle handle) throws Exception {
            return new Registration(delegate.register(handle));
        }

        @Override
        public void wakeup() {
            delegate.wakeup();
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return delegate.isCompatible(handleType);
        }
    }

    private record Registration(IoRegistration delegate) implements IoRegistration {
        @Override
        public <T> T attachment() {
            return delegate.attachment();
        }

        @Override
        public long submit(IoOps ops) {
            boolean empty = ops instanceof EpollIoOps e && e.value() == 0;
            return delegate.submit(empty ? EpollIoOps.EPOLLET : ops);
        }

        @Override
        public boolean isValid() {
            return delegate.isValid();
        }

        @Override
        public boolean cancel() {
            return delegate.cancel();
        }
    }
}

package dev.stockade.proxy.internal;

import dev.stockade.proxy.ProxyConfig;
import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;

/** Which Netty transport a listener runs on, and the matching channel classes. */
public enum Transports {
    /** Netty's native epoll transport (Linux): {@code splice(2)} is available to spliced tunnels. */
    EPOLL,
    /** The JDK's NIO selector: everywhere. */
    NIO;

    /**
     * The transport for {@code mode}; {@code AUTO} is epoll where its native library loads.
     *
     * @throws IOException when epoll is asked for and cannot load, with the reason
     */
    public static Transports of(ProxyConfig.PassthroughIo mode) throws IOException {
        return switch (mode) {
            case NIO -> NIO;
            case AUTO -> Epoll.isAvailable() ? EPOLL : NIO;
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    Throwable why = Epoll.unavailabilityCause();
                    throw new IOException("--passthrough-io epoll: the native epoll transport is not available here ("
                            + (why == null ? "unknown reason" : why.getMessage()) + "); use auto or nio");
                }
                yield EPOLL;
            }
        };
    }

    /** The I/O handler factory for this transport's event loops. */
    public IoHandlerFactory ioHandlers() {
        return this == EPOLL ? new EpollKeepRegistered() : NioIoHandler.newFactory();
    }

    /** The listening channel class. */
    public Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** The client channel class for an outbound connection registered on the same event loop as {@code client}. */
    public static Class<? extends SocketChannel> socketChannelLike(Channel client) {
        return client instanceof EpollSocketChannel ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}

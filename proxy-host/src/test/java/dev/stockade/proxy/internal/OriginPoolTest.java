package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The pool hands a connection out only for the exact key it was opened for, within its bounds. */
class OriginPoolTest {

    static final InetAddress A = InetAddress.getLoopbackAddress();

    static OriginPool.Key key(String sandbox, InetAddress address, String serverName) {
        return new OriginPool.Key(sandbox, "https", "api.test", 443, address, serverName);
    }

    static EmbeddedChannel idle(OriginPool pool) {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("relay", new ChannelInboundHandlerAdapter());
        pool.opened(ch);
        return ch;
    }

    @Test
    void aConnectionIsReusedOnlyForTheSameSandboxAddressAndServerName() throws Exception {
        OriginPool pool = new OriginPool(Duration.ofSeconds(30), 8, 256);
        EmbeddedChannel ch = idle(pool);
        OriginPool.Key k = key("sb-1", A, "api.test");
        pool.release(k, ch);
        assertThat(pool.idleCount()).isEqualTo(1);
        assertThat(pool.acquire(key("sb-2", A, "api.test"), ch.eventLoop())).isNull();
        assertThat(pool.acquire(key("sb-1", InetAddress.getByName("127.0.0.2"), "api.test"), ch.eventLoop())).isNull();
        assertThat(pool.acquire(key("sb-1", A, "other.test"), ch.eventLoop())).isNull();
        assertThat(pool.acquire(k, ch.eventLoop())).isSameAs(ch);
        assertThat(pool.acquire(k, ch.eventLoop())).isNull();
    }

    @Test
    void clearClosesIdleConnectionsAndRetiresThoseLentOut() {
        OriginPool pool = new OriginPool(Duration.ofSeconds(30), 8, 256);
        OriginPool.Key k = key("sb", A, "api.test");
        EmbeddedChannel pooled = idle(pool);
        pool.release(k, pooled);
        EmbeddedChannel lent = idle(pool);
        pool.clear();
        assertThat(pooled.isOpen()).isFalse();
        pool.release(k, lent); // opened before the clear (halt, reload): never pooled
        assertThat(lent.isOpen()).isFalse();
        assertThat(pool.idleCount()).isZero();
    }

    @Test
    void perKeyAndTotalCapsCloseTheSurplus() {
        OriginPool pool = new OriginPool(Duration.ofSeconds(30), 1, 2);
        EmbeddedChannel a = idle(pool);
        EmbeddedChannel b = idle(pool);
        pool.release(key("sb", A, "api.test"), a);
        pool.release(key("sb", A, "api.test"), b);
        assertThat(a.isOpen()).isTrue();
        assertThat(b.isOpen()).isFalse();
        EmbeddedChannel c = idle(pool);
        EmbeddedChannel d = idle(pool);
        pool.release(key("sb-2", A, "api.test"), c);
        pool.release(key("sb-3", A, "api.test"), d);
        assertThat(c.isOpen()).isTrue();
        assertThat(d.isOpen()).isFalse();
        assertThat(pool.idleCount()).isEqualTo(2);
    }

    @Test
    void theIdleBoundClosesAPooledConnection() {
        OriginPool pool = new OriginPool(Duration.ofMillis(1), 8, 256);
        EmbeddedChannel ch = idle(pool);
        pool.release(key("sb", A, "api.test"), ch);
        // the embedded loop runs scheduled tasks whose deadline passed; advance its clock past the bound
        ch.advanceTimeBy(1, java.util.concurrent.TimeUnit.SECONDS);
        ch.runScheduledPendingTasks();
        assertThat(ch.isOpen()).isFalse();
        assertThat(pool.idleCount()).isZero();
    }

    @Test
    void anOriginWritingToAnIdleConnectionEndsIt() {
        OriginPool pool = new OriginPool(Duration.ofSeconds(30), 8, 256);
        EmbeddedChannel ch = idle(pool);
        pool.release(key("sb", A, "api.test"), ch);
        ch.writeInbound(io.netty.buffer.Unpooled.copiedBuffer(new byte[] {'H'}));
        assertThat(ch.isOpen()).isFalse();
        assertThat(pool.idleCount()).isZero();
    }
}

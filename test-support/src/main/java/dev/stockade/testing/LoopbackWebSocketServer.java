package dev.stockade.testing;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.java_websocket.WebSocket;
import org.java_websocket.WebSocketImpl;
import org.java_websocket.drafts.Draft;
import org.java_websocket.server.WebSocketServer;

/**
 * A Java-WebSocket server on a free loopback port, the base of every double that speaks WebSocket.
 *
 * <p>Java-WebSocket 1.6.0's selector can strand a frame: when a send from another thread queues it after the selector
 * found the connection's queue empty but before it set the key back to {@code OP_READ}, the key loses its write
 * interest and the frame waits for the next send. A double's peer, waiting for that very frame, never causes one (a
 * realtime test waited 30 s for a response that sat in the queue). So every 10 ms a daemon thread asks the selector to
 * write for each connection whose queue still holds a frame: a stranded frame leaves within that time, and a frame
 * the selector is writing anyway is unaffected.
 */
public abstract class LoopbackWebSocketServer extends WebSocketServer {
    private static final long KICK_MILLIS = 10;
    private final CountDownLatch started = new CountDownLatch(1);
    private final ScheduledExecutorService kicker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "websocket-double-write-kick");
        t.setDaemon(true);
        return t;
    });

    /** Every draft Java-WebSocket knows. */
    protected LoopbackWebSocketServer() {
        super(new InetSocketAddress("127.0.0.1", 0));
        setReuseAddr(true);
        setDaemon(true);
    }

    /** Only these drafts: a double that offers subprotocols names them here. */
    protected LoopbackWebSocketServer(List<Draft> drafts) {
        super(new InetSocketAddress("127.0.0.1", 0), drafts);
        setReuseAddr(true);
        setDaemon(true);
    }

    /** Starts listening and returns once it does. */
    public void listen() throws InterruptedException {
        start();
        if (!started.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(getClass().getSimpleName() + " did not start listening in 30 s");
        }
        kicker.scheduleWithFixedDelay(this::kickStrandedWrites, KICK_MILLIS, KICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void kickStrandedWrites() {
        for (WebSocket c : getConnections()) {
            try {
                if (c instanceof WebSocketImpl impl && !impl.outQueue.isEmpty() && impl.getSelectionKey() != null) {
                    onWriteDemand(c);
                }
            } catch (RuntimeException closing) {
                // a connection closing under us; an exception escaping here would end the schedule for good
            }
        }
    }

    @Override
    public final void onStart() {
        started.countDown();
    }

    @Override
    public void onError(WebSocket conn, Exception ex) {
        // a broken connection ends in onClose; a double's test asserts on what arrived
    }

    @Override
    public void stop(int timeout, String closeMessage) throws InterruptedException {
        kicker.shutdownNow();
        super.stop(timeout, closeMessage);
    }
}

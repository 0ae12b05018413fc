package dev.stockade.proxy.internal;

import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.graphql.GraphqlSummary;
import dev.stockade.proxy.EgressReason;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client-to-origin half of a GraphQL websocket: every text message the client sends (fragments
 * reassembled up to the inspection limit) is judged by {@code DecisionProgram.decideFrame} before any of it
 * reaches the origin; a denied message closes the socket with 1008 (policy violation). Control frames
 * pass; binary messages are denied (a GraphQL websocket speaks text). The origin-to-client half stays
 * a byte {@link Splice}: nothing the origin sends is policed.
 */
public final class WebSocketFence extends ChannelInboundHandlerAdapter {

    private final ProxyContext px;
    private final ConnectionInfo conn;
    private final Channel origin;
    private final EgressRequest upgrade;
    private final String subprotocol;
    private final int limit;
    private final AtomicLong bytesIn;
    /** The websocket exchange each judged message is audited under: one line per decision, allowed or denied. */
    private final Exchange exchange;

    /** Frames of the message being assembled; held (retained) until the whole message is judged. */
    private final List<WebSocketFrame> message = new ArrayList<>();
    private byte[] text = new byte[256];
    private int textLength;
    private boolean inText;
    private boolean closed;
    /** What the fence judged in the message just decided, for its line; {@code null} when it read none. */
    private GraphqlSummary judged;
    // INVARIANT: touched only on the client's event loop, which the origin channel shares
    private int pendingWrites;
    private boolean wantRead;

    private WebSocketFence(ProxyContext px, ConnectionInfo conn, Channel origin, EgressRequest upgrade,
                           String subprotocol, AtomicLong bytesIn, Exchange exchange) {
        this.px = px;
        this.conn = conn;
        this.origin = origin;
        this.upgrade = upgrade;
        this.subprotocol = subprotocol;
        this.limit = px.config().inspectBodyBytes();
        this.bytesIn = bytesIn;
        this.exchange = exchange;
    }

    /**
     * Replaces the client pipeline's HTTP codec (named {@code http}) with a websocket frame decoder that
     * requires masked client frames and no extension, an encoder for the proxy's own close frames, and
     * the fence.
     */
    public static void install(ProxyContext px, ChannelPipeline p, ConnectionInfo conn, Channel origin,
                               EgressRequest upgrade, String subprotocol, AtomicLong bytesIn, Exchange exchange) {
        WebSocketDecoderConfig config = WebSocketDecoderConfig.newBuilder()
                .expectMaskedFrames(true)
                .allowMaskMismatch(false)
                // INVARIANT: extensions (permessage-deflate) were stripped from the upgrade, so a frame with
                // RSV bits set is a protocol violation rather than text the fence cannot read
                .allowExtensions(false)
                .maxFramePayloadLength(px.config().inspectBodyBytes())
                .closeOnProtocolViolation(false)
                .withUTF8Validator(false)
                .build();
        p.replace("http", "ws-decoder", new WebSocket08FrameDecoder(config));
        p.addAfter("ws-decoder", "ws-encoder", new WebSocket08FrameEncoder(false));
        p.addAfter("ws-encoder", "ws-fence", new WebSocketFence(px, conn, origin, upgrade, subprotocol, bytesIn,
                exchange));
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(false);
        if (ctx.channel().isActive()) {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closed || !(msg instanceof WebSocketFrame frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (frame instanceof TextWebSocketFrame || (frame instanceof ContinuationWebSocketFrame && inText)) {
            collect(ctx, frame);
        } else if (frame instanceof BinaryWebSocketFrame || frame instanceof ContinuationWebSocketFrame) {
            frame.release();
            deny(ctx, Decision.deny(ReasonCode.GRAPHQL_WEBSOCKET_DENIED, "binary websocket message"),
                    EgressReason.GRAPHQL_WEBSOCKET_DENIED);
        } else {
            forward(ctx, frame); // ping, pong, close: housekeeping of the socket itself
        }
    }

    private void collect(ChannelHandlerContext ctx, WebSocketFrame frame) {
        inText = true;
        message.add(frame);
        ByteBuf content = frame.content();
        int n = content.readableBytes();
        if (textLength + n > limit) {
            deny(ctx, Decision.deny(ReasonCode.GRAPHQL_LIMIT, "websocket message exceeds the inspection limit"),
                    EgressReason.GRAPHQL_LIMIT);
            return;
        }
        if (textLength + n > text.length) {
            text = java.util.Arrays.copyOf(text, Math.min(limit, Math.max(text.length * 2, textLength + n)));
        }
        content.getBytes(content.readerIndex(), text, textLength, n);
        textLength += n;
        if (!frame.isFinalFragment()) {
            return;
        }
        Decision d = judge();
        if (!d.allowed()) {
            deny(ctx, d, EgressReason.of(d.reason()));
            return;
        }
        px.metrics().decision("websocket", "allow", EgressReason.of(d.reason()));
        px.record(exchange.withGraphql(judged).line(conn, new Exchange.Forwarded(d, 0, textLength, 0, null)));
        judged = null; // a later refusal before judging (a binary message, the limit) read no operation
        for (WebSocketFrame f : message) {
            forward(ctx, f);
        }
        message.clear();
        textLength = 0;
        inText = false;
    }

    private Decision judge() {
        judged = null;
        if (px.isHalted()) {
            return Decision.deny(ReasonCode.HALTED, "the organization is halted");
        }
        String decoded;
        try {
            decoded = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(text, 0, textLength))
                    .toString();
        } catch (CharacterCodingException e) {
            return Decision.deny(ReasonCode.GRAPHQL_UNPARSEABLE, "websocket text message is not valid utf-8");
        }
        long start = System.nanoTime();
        try {
            Decision d = conn.program().decideFrame(upgrade, subprotocol, decoded);
            if (d == null) {
                return Decision.deny(ReasonCode.INTERNAL_ERROR, "no decision");
            }
            judged = JudgedOperations.ofFrame(px.graphqlSummaries(), subprotocol, decoded, d);
            return d;
        } catch (RuntimeException e) {
            return Decision.deny(ReasonCode.INTERNAL_ERROR, "the decision failed");
        } finally {
            px.metrics().decided("frame", start);
        }
    }

    private void forward(ChannelHandlerContext ctx, WebSocketFrame frame) {
        bytesIn.addAndGet(frame.content().readableBytes());
        px.metrics().bytesIn(frame.content().readableBytes());
        pendingWrites++;
        origin.write(frame).addListener((ChannelFutureListener) f -> {
            pendingWrites--;
            if (!f.isSuccess()) {
                ctx.close();
            } else if (pendingWrites == 0 && wantRead) {
                wantRead = false;
                ctx.read();
            }
        });
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        origin.flush();
        if (pendingWrites == 0) {
            ctx.read();
        } else {
            wantRead = true;
        }
    }

    /** Audits the deny, answers 1008 to the client, closes both sides; the message never reaches the origin. */
    private void deny(ChannelHandlerContext ctx, Decision d, EgressReason reason) {
        closeWith(ctx, d, reason, WebSocketCloseStatus.POLICY_VIOLATION);
    }

    private void closeWith(ChannelHandlerContext ctx, Decision d, EgressReason reason, WebSocketCloseStatus status) {
        if (closed) {
            return;
        }
        closed = true;
        release();
        px.record(exchange.withGraphql(judged).line(conn, new Exchange.Refused(d, reason, status.code(), 0, 0)));
        // the close reason carries the reason code only, never frame content
        ctx.channel().writeAndFlush(new CloseWebSocketFrame(status.code(), "stockade: " + reason.code()))
                .addListener(ChannelFutureListener.CLOSE);
        if (origin.isActive()) {
            origin.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE))
                    .addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void release() {
        message.forEach(ReferenceCountUtil::release);
        message.clear();
        textLength = 0;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        release();
        Splice.closeOnFlush(origin);
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof CorruptedWebSocketFrameException bad) {
            if (bad.closeStatus() != null && bad.closeStatus().code() == WebSocketCloseStatus.MESSAGE_TOO_BIG.code()) {
                deny(ctx, Decision.deny(ReasonCode.GRAPHQL_LIMIT, "websocket frame exceeds the inspection limit"),
                        EgressReason.GRAPHQL_LIMIT);
            } else {
                closeWith(ctx, Decision.deny(ReasonCode.INVALID_REQUEST, "websocket protocol violation"),
                        EgressReason.INVALID_REQUEST, WebSocketCloseStatus.PROTOCOL_ERROR);
            }
            return;
        }
        ctx.close();
    }
}

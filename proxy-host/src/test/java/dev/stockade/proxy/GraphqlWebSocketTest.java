package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.ssl.SslHandler;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * GraphQL websockets policed frame by frame: a real Netty websocket origin (TLS, graphql-transport-ws and
 * graphql-ws) on loopback, reached through an intercepted tunnel with the install's CA; the client speaks
 * RFC 6455 frames by hand so the test controls masking, fragmentation and opcodes.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class GraphqlWebSocketTest {
    private static final int INSPECT = 4096;
    private static final String SUBSCRIBE_OK =
            "{\"type\":\"subscribe\",\"id\":\"1\",\"payload\":{\"query\":\"subscription { issueUpdated { id } }\"}}";
    private static final String SUBSCRIBE_OUTSIDE =
            "{\"type\":\"subscribe\",\"id\":\"2\",\"payload\":{\"query\":\"subscription { repoDeleted { id } }\"}}";

    @TempDir
    static Path dir;
    static Origins origins;
    static EventLoopGroup originGroup;
    static Channel wsOrigin;
    static final ConcurrentLinkedQueue<String> originSaw = new ConcurrentLinkedQueue<>();
    static ProxyServer proxy;
    static final AuditCollector audit = new AuditCollector();

    @BeforeAll
    static void start() throws Exception {
        origins = new Origins(dir, "ws.test");
        originGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        wsOrigin = new ServerBootstrap().group(originGroup).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        SSLEngine engine = origins.sslContext.createSSLEngine();
                        engine.setUseClientMode(false);
                        ch.pipeline().addLast(new SslHandler(engine), new HttpServerCodec(),
                                new HttpObjectAggregator(65536),
                                new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig.newBuilder()
                                        .websocketPath("/graphql").subprotocols("graphql-transport-ws,graphql-ws")
                                        .allowExtensions(false).build()),
                                new WebSocketFrameAggregator(1 << 20), new Echo());
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        PolicySource decider = TestPolicies.compile(dir, "ws", """
                name: ws-policy
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: ws.test
                    verdict: allow
                    transport: upstream
                    rules:
                      - method: GET
                        path: /graphql
                        graphql: {operationType: subscription, fields: [issueUpdated]}
                """);
        ProxyConfig config = ProxyConfig.builder(dir.resolve("data")).port(0).allowLoopbackOriginsUnsafe(true)
                .extraTrustPem(origins.originCaPem).resolve("ws.test", "127.0.0.1").inspectBodyBytes(INSPECT)
                .sandbox("sb-ws").build();
        proxy = ProxyServer.start(config, decider, audit, CredentialStore.empty());
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        wsOrigin.close().sync();
        originGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        origins.close();
    }

    /** Records each whole text message and answers {@code echo:<message>}. */
    static final class Echo extends SimpleChannelInboundHandler<TextWebSocketFrame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, TextWebSocketFrame msg) {
            originSaw.add(msg.text());
            ctx.writeAndFlush(new TextWebSocketFrame("echo:" + msg.text()));
        }
    }

    @Test
    void housekeepingAndAnAdmittedSubscriptionPassBothWays() throws Exception {
        try (Ws ws = Ws.open("graphql-transport-ws")) {
            assertThat(ws.handshake).containsIgnoringCase("sec-websocket-protocol: graphql-transport-ws");
            assertThat(ws.handshake).doesNotContainIgnoringCase("sec-websocket-extensions");
            ws.send(Ws.TEXT, true, "{\"type\":\"connection_init\"}");
            assertThat(ws.readText()).isEqualTo("echo:{\"type\":\"connection_init\"}");
            ws.send(Ws.TEXT, true, "{\"type\":\"ping\"}");
            assertThat(ws.readText()).isEqualTo("echo:{\"type\":\"ping\"}");
            ws.send(Ws.PING, true, "are-you-there");
            Frame pong = ws.read();
            assertThat(pong.opcode).isEqualTo(Ws.PONG);
            assertThat(pong.text()).isEqualTo("are-you-there");
            ws.send(Ws.TEXT, true, SUBSCRIBE_OK);
            assertThat(ws.readText()).isEqualTo("echo:" + SUBSCRIBE_OK);
        }
        assertThat(originSaw).contains(SUBSCRIBE_OK);
        // every judged message is a decision with its audit line, the admitted ones too
        AuditEvent admitted = audit.await(e -> "websocket".equals(e.listener()) && "allow".equals(e.verdict())
                && e.bytesIn() == SUBSCRIBE_OK.getBytes(java.nio.charset.StandardCharsets.UTF_8).length,
                Duration.ofSeconds(30));
        assertThat(admitted.status()).isZero();
        // what the fence judged in the message is on its line: the operation, never the frame
        assertThat(admitted.graphql().toJson()).isEqualTo("{\"operations\":[{\"element\":0,\"type\":"
                + "\"subscription\",\"name\":null,\"fields\":[\"issueUpdated\"]}],\"truncated\":false}");
    }

    @Test
    void aSubscriptionToAFieldOutsideTheFenceClosesWith1008AndNeverReachesTheOrigin() throws Exception {
        try (Ws ws = Ws.open("graphql-transport-ws")) {
            ws.send(Ws.TEXT, true, "{\"type\":\"connection_init\"}");
            assertThat(ws.readText()).startsWith("echo:");
            ws.send(Ws.TEXT, true, SUBSCRIBE_OUTSIDE);
            Frame close = ws.read();
            assertThat(close.opcode).isEqualTo(Ws.CLOSE);
            assertThat(close.closeCode()).isEqualTo(1008);
            assertThat(close.closeReason()).isEqualTo("stockade: graphql-field-denied");
            assertThat(ws.atEnd()).isTrue();
        }
        AuditEvent line = audit.await(e -> EgressReason.GRAPHQL_FIELD_DENIED == e.reason(), Duration.ofSeconds(30));
        assertThat(line.status()).isEqualTo(1008);
        assertThat(line.listener()).isEqualTo("websocket");
        assertThat(line.verdict()).isEqualTo("deny");
        assertThat(line.path()).isEqualTo("/graphql");
        assertThat(line.policy()).isEqualTo("ws-policy");
        // the line names the root field the fence refused (its summary), never the frame's text
        assertThat(line.graphql().operations()).singleElement()
                .satisfies(o -> assertThat(o.fields()).containsExactly("repoDeleted"));
        assertThat(line.toJson()).doesNotContain("subscribe", "payload", "{ id }");
        assertThat(originSaw).noneMatch(m -> m.contains("repoDeleted"));
    }

    @Test
    void fragmentedMessagesAreReassembledJudgedAndForwardedUnchanged() throws Exception {
        try (Ws ws = Ws.open("graphql-ws")) {
            String start = SUBSCRIBE_OK.replace("subscribe", "start");
            int cut = start.length() / 2;
            ws.send(Ws.TEXT, false, start.substring(0, cut));
            ws.send(Ws.PING, true, "between"); // a control frame may sit inside a fragmented message
            ws.send(Ws.CONTINUATION, true, start.substring(cut));
            Frame pong = ws.read();
            assertThat(pong.opcode).isEqualTo(Ws.PONG);
            assertThat(ws.readText()).isEqualTo("echo:" + start);

            String outside = SUBSCRIBE_OUTSIDE.replace("subscribe", "start");
            ws.send(Ws.TEXT, false, outside.substring(0, 10));
            ws.send(Ws.CONTINUATION, true, outside.substring(10));
            assertThat(ws.read().closeCode()).isEqualTo(1008);
        }
        assertThat(originSaw).noneMatch(m -> m.contains("repoDeleted"));
    }

    @Test
    void aMessageBeyondTheInspectionLimitIsDenied() throws Exception {
        try (Ws ws = Ws.open("graphql-transport-ws")) {
            String padding = " ".repeat(INSPECT / 2);
            ws.send(Ws.TEXT, false, "{\"type\":\"subscribe\"," + padding);
            ws.send(Ws.CONTINUATION, false, padding);
            ws.send(Ws.CONTINUATION, true, "\"id\":\"1\"}");
            Frame close = ws.read();
            assertThat(close.closeCode()).isEqualTo(1008);
            assertThat(close.closeReason()).isEqualTo("stockade: graphql-limit");
        }
        try (Ws ws = Ws.open("graphql-transport-ws")) {
            ws.send(Ws.TEXT, true, "{\"type\":\"ping\"}" + " ".repeat(INSPECT + 1)); // one frame, too long
            assertThat(ws.read().closeCode()).isEqualTo(1008);
        }
        audit.await(e -> EgressReason.GRAPHQL_LIMIT == e.reason() && e.status() == 1008, Duration.ofSeconds(30));
    }

    @Test
    void binaryMessagesAndUnknownMessageTypesAreDenied() throws Exception {
        try (Ws ws = Ws.open("graphql-transport-ws")) {
            ws.send(Ws.BINARY, true, SUBSCRIBE_OK);
            assertThat(ws.read().closeCode()).isEqualTo(1008);
        }
        try (Ws ws = Ws.open("graphql-transport-ws")) {
            ws.send(Ws.TEXT, true, "{\"type\":\"something_else\"}");
            Frame close = ws.read();
            assertThat(close.closeCode()).isEqualTo(1008);
            assertThat(close.closeReason()).isEqualTo("stockade: graphql-websocket-denied");
        }
    }

    @Test
    void unmaskedClientFramesAreAProtocolError() throws Exception {
        try (Ws ws = Ws.open("graphql-transport-ws")) {
            ws.sendUnmasked("{\"type\":\"ping\"}");
            assertThat(ws.read().closeCode()).isEqualTo(1002);
        }
    }

    /** One frame as read off the wire (server frames are unmasked). */
    record Frame(int opcode, boolean fin, byte[] payload) {
        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        int closeCode() {
            assertThat(opcode).as("a close frame").isEqualTo(Ws.CLOSE);
            return ((payload[0] & 0xff) << 8) | (payload[1] & 0xff);
        }

        String closeReason() {
            return new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
        }
    }

    /** A minimal RFC 6455 client over an intercepted tunnel. */
    static final class Ws implements AutoCloseable {
        static final int CONTINUATION = 0;
        static final int TEXT = 1;
        static final int BINARY = 2;
        static final int CLOSE = 8;
        static final int PING = 9;
        static final int PONG = 10;
        private static final SecureRandom RANDOM = new SecureRandom();

        final Socket raw;
        final SSLSocket tls;
        final String handshake;
        final OutputStream out;
        final DataInputStream in;

        private Ws(Socket raw, SSLSocket tls, String handshake) throws IOException {
            this.raw = raw;
            this.tls = tls;
            this.handshake = handshake;
            this.out = tls.getOutputStream();
            this.in = new DataInputStream(tls.getInputStream());
        }

        static Ws open(String subprotocol) throws Exception {
            int port = ((InetSocketAddress) wsOrigin.localAddress()).getPort();
            Socket raw = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
            raw.setSoTimeout(30_000);
            raw.getOutputStream().write(("CONNECT ws.test:" + port + " HTTP/1.1\r\nHost: ws.test:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(RawHttp.readHead(raw.getInputStream())).startsWith("HTTP/1.1 200");
            SSLSocket tls = (SSLSocket) ForwardProxyTest.trusting(proxy.caCertificate()).getSocketFactory()
                    .createSocket(raw, "ws.test", port, true);
            tls.startHandshake();
            tls.getOutputStream().write(("GET /graphql HTTP/1.1\r\nHost: ws.test:" + port + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: " + subprotocol + "\r\n"
                    + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String head = RawHttp.readHead(tls.getInputStream());
            assertThat(head).as("audit: %s", audit.all()).startsWith("HTTP/1.1 101");
            return new Ws(raw, tls, head);
        }

        void send(int opcode, boolean fin, String payload) throws IOException {
            byte[] data = payload.getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write((fin ? 0x80 : 0) | opcode);
            header(b, data.length, true);
            byte[] mask = new byte[4];
            RANDOM.nextBytes(mask);
            b.write(mask);
            for (int i = 0; i < data.length; i++) {
                b.write(data[i] ^ mask[i & 3]);
            }
            out.write(b.toByteArray());
            out.flush();
        }

        void sendUnmasked(String payload) throws IOException {
            byte[] data = payload.getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(0x80 | TEXT);
            header(b, data.length, false);
            b.write(data);
            out.write(b.toByteArray());
            out.flush();
        }

        private static void header(ByteArrayOutputStream b, int length, boolean masked) {
            int m = masked ? 0x80 : 0;
            if (length < 126) {
                b.write(m | length);
            } else {
                b.write(m | 126);
                b.write(length >>> 8);
                b.write(length & 0xff);
            }
        }

        Frame read() throws IOException {
            int b0 = in.readUnsignedByte();
            int b1 = in.readUnsignedByte();
            assertThat(b1 & 0x80).as("server frames are not masked").isZero();
            long length = b1 & 0x7f;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            byte[] payload = new byte[(int) length];
            in.readFully(payload);
            return new Frame(b0 & 0x0f, (b0 & 0x80) != 0, payload);
        }

        String readText() throws IOException {
            Frame f = read();
            assertThat(f.opcode).as("a text frame, got %s", f.opcode == CLOSE ? "close " + f.closeCode() : f.opcode)
                    .isEqualTo(TEXT);
            return f.text();
        }

        /** Whether the proxy closed the connection after its close frame. */
        boolean atEnd() throws IOException {
            try {
                return in.read() == -1;
            } catch (SocketException reset) {
                return true;
            }
        }

        @Override
        public void close() throws IOException {
            raw.close();
        }
    }
}

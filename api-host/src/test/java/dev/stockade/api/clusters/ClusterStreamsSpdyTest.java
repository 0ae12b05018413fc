package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Scratch;
import dev.stockade.testing.Await;
import dev.stockade.testing.ThrowawayPki;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLServerSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A SPDY/3.1 handshake (kubectl's exec and port-forward before 1.29) through the cluster proxy in direct mode, to a
 * loopback stand-in for the API server that answers the upgrade as one does and echoes what follows: the handshake
 * crosses with the request JWT and the stream protocol versions, the answer comes back filtered, SPDY frames made by
 * Netty's SPDY encoder cross both ways unchanged, and a data frame over the bound ends both connections. Also the
 * refusals that need no cluster at all: other paths, a relay that is not connected, and strangers to the relay's
 * stream connection.
 */
@MicronautTest(transactional = false)
class ClusterStreamsSpdyTest extends PlatformTest {
    private final ThrowawayPki pki = ThrowawayPki.create(Scratch.directory("spdy-pki"));
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final SSLServerSocket apiServer = listen();

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("clusters.allow-loopback-unsafe", "true", "clusters.streams.max-frame-bytes", "4096");
    }

    private SSLServerSocket listen() {
        var identity = pki.issue("api", "/CN=api", ThrowawayPki.Use.SERVER, List.of("127.0.0.1"), List.of());
        try {
            SSLServerSocket server = (SSLServerSocket) pki.sslContext(identity).getServerSocketFactory()
                    .createServerSocket(0, 10, InetAddress.getLoopbackAddress());
            Thread accepting = new Thread(() -> accept(server), "spdy-api-server");
            accepting.setDaemon(true);
            accepting.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Answers each upgrade with 101 (and a cookie that must not reach the sandbox), then echoes every byte. */
    private void accept(SSLServerSocket server) {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                heads.add(head(s.getInputStream()));
                OutputStream out = s.getOutputStream();
                out.write(("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n"
                        + "X-Stream-Protocol-Version: v4.channel.k8s.io\r\nSet-Cookie: session=leak\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                s.getInputStream().transferTo(out);
            } catch (IOException e) {
                // the stream ended
            }
        }
    }

    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (!bytes.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the head ended early");
            }
            bytes.write(b);
        }
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] encode(Object... frames) {
        EmbeddedChannel codec = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object frame : frames) {
            codec.writeOutbound(frame);
            for (ByteBuf b = codec.readOutbound(); b != null; b = codec.readOutbound()) {
                byte[] bytes = new byte[b.readableBytes()];
                b.readBytes(bytes);
                b.release();
                out.writeBytes(bytes);
            }
        }
        return out.toByteArray();
    }

    @AfterAll
    void stopApiServer() throws IOException {
        apiServer.close();
    }

    @Test
    void spdyFramesCrossBothWaysUnchangedAndAnOversizedFrameEndsTheStream() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "spdy-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        String clusterId = http.post("/v1/projects/" + project + "/clusters", owner, Map.of("name", "spdy",
                "apiServerUrl", "https://127.0.0.1:" + apiServer.getLocalPort(),
                "caCertificate", Files.readString(pki.caCertificate()))).text("id");
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s"))
                .text("token");
        String clusterToken = http.post("/v1/auth/cluster-token", sandbox, null).text("token");

        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getPort())) {
            client.setSoTimeout(30_000);
            OutputStream out = client.getOutputStream();
            out.write(("POST /v1/clusters/" + clusterId + "/proxy/api/v1/namespaces/team/pods/worker/exec"
                    + "?command=sh&stdin=true&stdout=true HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + clusterToken + "\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n"
                    + "X-Stream-Protocol-Version: v4.channel.k8s.io\r\nX-Stream-Protocol-Version: channel.k8s.io\r\n"
                    + "Cookie: platform=secret\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = client.getInputStream();
            String answer = head(in);
            assertThat(answer).startsWith("HTTP/1.1 101").containsIgnoringCase("upgrade: SPDY/3.1")
                    .containsIgnoringCase("x-stream-protocol-version: v4.channel.k8s.io")
                    .doesNotContainIgnoringCase("set-cookie");
            String handshake = heads.get(0);
            assertThat(handshake).startsWith("POST /api/v1/namespaces/team/pods/worker/exec?command=sh&stdin=true")
                    .containsIgnoringCase("x-stream-protocol-version: channel.k8s.io")
                    .doesNotContain(clusterToken).doesNotContainIgnoringCase("cookie")
                    .containsIgnoringCase("authorization: Bearer ey");

            SpdySynStreamFrame stdin = new DefaultSpdySynStreamFrame(1, 0, (byte) 0);
            stdin.headers().set("streamtype", "stdin");
            byte[] frames = encode(stdin, new DefaultSpdyDataFrame(1, Unpooled.wrappedBuffer(new byte[4096])));
            out.write(frames);
            out.flush();
            assertThat(in.readNBytes(frames.length)).as("echoed through the platform unchanged").isEqualTo(frames);

            out.write(encode(new DefaultSpdyDataFrame(1, Unpooled.wrappedBuffer(new byte[4097]))));
            out.flush();
            // a frame over 4096 bytes ends the stream: first a failure status on the client's first stream (a
            // remote command's error stream), which says why, then the end of the connection
            EmbeddedChannel decoder = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));
            decoder.writeInbound(Unpooled.wrappedBuffer(in.readAllBytes()));
            io.netty.handler.codec.spdy.SpdyDataFrame status = decoder.readInbound();
            assertThat(status.streamId()).isEqualTo(1);
            assertThat(status.isLast()).isTrue();
            assertThat(status.content().toString(StandardCharsets.UTF_8)).contains("\"status\":\"Failure\"")
                    .contains("\"reason\":\"RequestEntityTooLarge\"").contains("\"code\":413");
            status.release();
            assertThat((Object) decoder.readInbound()).as("nothing after it").isNull();
        }
        Await.until("the stream's end to be audited as frame-too-large", () -> http.get("/v1/orgs/" + org
                + "/audit-trail?kind=cluster-proxy", owner).raw().contains("frame-too-large"));
        assertThat(http.get("/v1/orgs/" + org + "/audit-trail?kind=cluster-proxy", owner).raw()).contains("SPDY/3.1");
    }

    /** Sends one upgrade request over a fresh connection; the status line's code. */
    private int upgrade(String target, String token, String upgrade, String extra) throws IOException {
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getPort())) {
            client.setSoTimeout(30_000);
            client.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + token + "\r\nConnection: Upgrade\r\nUpgrade: " + upgrade + "\r\n" + extra + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            return Integer.parseInt(head(client.getInputStream()).split(" ")[1]);
        }
    }

    @Test
    void upgradesOfOtherPathsClustersWithoutARelayAndStrangersToTheRelaysStreamAreRefused() throws Exception {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "refusals-" + UUID.randomUUID()), "p");
        var relayed = http.post("/v1/projects/" + project + "/clusters", owner, Map.of("name", "relayed"));
        String clusterId = relayed.text("id");
        String sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "s"))
                .text("token");
        String clusterToken = http.post("/v1/auth/cluster-token", sandbox, null).text("token");
        String proxy = "/v1/clusters/" + clusterId + "/proxy";

        assertThat(upgrade(proxy + "/api/v1/namespaces/a/pods/b/proxy", clusterToken, "websocket", ""))
                .as("a pod's proxy subresource is no stream").isEqualTo(400);
        assertThat(upgrade(proxy + "/api/v1/namespaces/a/pods/b/exec?command=sh", clusterToken, "SPDY/3.1", ""))
                .as("a relay-mode cluster whose relay is not connected").isEqualTo(502);
        assertThat(upgrade(proxy + "/api/v1/namespaces/a/pods/b/exec?command=sh", "nope", "websocket", ""))
                .isEqualTo(401);

        String streams = "/v1/clusters/" + clusterId + "/relay/streams/" + UUID.randomUUID();
        String answer = "X-Stockade-Relay-Answer: " + java.util.Base64.getEncoder().encodeToString(
                "{\"status\":101,\"headers\":{}}".getBytes(StandardCharsets.UTF_8)) + "\r\n";
        assertThat(upgrade(streams, clusterToken, "stockade-relay-stream", answer))
                .as("a cluster JWT is not the tunnel token").isEqualTo(401);
        assertThat(upgrade(streams, relayed.text("tunnelToken"), "stockade-relay-stream", answer))
                .as("no stream waits under that id").isEqualTo(404);
        assertThat(upgrade(streams, relayed.text("tunnelToken"), "stockade-relay-stream", ""))
                .as("without the API server's 101").isEqualTo(400);
    }
}

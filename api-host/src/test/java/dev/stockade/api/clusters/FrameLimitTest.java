package dev.stockade.api.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.kernel.web.ApiProblem;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.spdy.DefaultSpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyVersion;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The frame bound of upgraded streams, on frames made by real encoders (Netty's WebSocket encoder, masked as a client
 * sends and unmasked as a server does; SPDY/3 headers as the SPDY draft lays them out), fed whole and cut at every
 * byte, since TCP may split a header anywhere.
 */
class FrameLimitTest {
    private static ByteBuf webSocket(int payload, boolean masked) {
        EmbeddedChannel encoder = new EmbeddedChannel(new WebSocket13FrameEncoder(masked));
        encoder.writeOutbound(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[payload])));
        ByteBuf out = Unpooled.buffer();
        for (ByteBuf part = encoder.readOutbound(); part != null; part = encoder.readOutbound()) {
            out.writeBytes(part);
            part.release();
        }
        return out;
    }

    /** A SPDY/3 data frame: stream id (31 bits), flags, 24-bit length, then the payload. */
    private static ByteBuf spdyData(int payload) {
        return Unpooled.buffer().writeInt(1).writeByte(0).writeMedium(payload).writeBytes(new byte[payload]);
    }

    /** A SPDY/3 control frame (SYN_STREAM): control bit, version 3, type 1, flags, 24-bit length. */
    private static ByteBuf spdyControl(int payload) {
        return Unpooled.buffer().writeShort(0x8003).writeShort(1).writeByte(0).writeMedium(payload)
                .writeBytes(new byte[payload]);
    }

    private static long scanInPieces(FrameLimit limit, ByteBuf all, int piece) {
        long over = -1;
        for (int i = 0; i < all.readableBytes() && over < 0; i += piece) {
            over = limit.scan(all.slice(i, Math.min(piece, all.readableBytes() - i)));
        }
        return over;
    }

    @Test
    void webSocketFramesUpToTheBoundPassAndALargerOneIsCaughtWhereverTheBytesAreCut() {
        for (boolean masked : new boolean[] {true, false}) {
            for (int piece : new int[] {1, 2, 3, 7, 1 << 20}) {
                FrameLimit limit = new FrameLimit(StreamKind.Protocol.WEBSOCKET, 70_000, n -> { });
                // 7-bit, 16-bit and 64-bit lengths, all within the bound
                ByteBuf fine = Unpooled.wrappedBuffer(webSocket(0, masked), webSocket(125, masked),
                        webSocket(126, masked), webSocket(65_535, masked), webSocket(70_000, masked));
                assertThat(scanInPieces(limit, fine, piece)).as("masked %s, pieces of %d", masked, piece)
                        .isEqualTo(-1);
                assertThat(limit.atBoundary()).isTrue();
                assertThat(scanInPieces(limit, webSocket(70_001, masked), piece)).isEqualTo(70_001);
            }
        }
    }

    @Test
    void aSixtyFourBitLengthWithTheTopBitSetIsRefused() {
        FrameLimit limit = new FrameLimit(StreamKind.Protocol.WEBSOCKET, 1 << 20, n -> { });
        ByteBuf frame = Unpooled.buffer().writeByte(0x82).writeByte(127).writeLong(Long.MIN_VALUE);
        assertThat(limit.scan(frame)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void spdyControlAndDataFramesAreMeasuredByTheirTwentyFourBitLength() {
        for (int piece : new int[] {1, 5, 1 << 20}) {
            FrameLimit limit = new FrameLimit(StreamKind.Protocol.SPDY, 4096, n -> { });
            ByteBuf fine = Unpooled.wrappedBuffer(spdyControl(10), spdyData(4096), spdyData(0));
            assertThat(scanInPieces(limit, fine, piece)).isEqualTo(-1);
            assertThat(scanInPieces(limit, spdyData(4097), piece)).isEqualTo(4097);
        }
    }

    @Test
    void theFirstSynStreamsIdIsReadWhateverThePiecesAndALaterOneDoesNotReplaceIt() {
        EmbeddedChannel codec = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));
        List<ByteBuf> frames = new ArrayList<>();
        for (int id : new int[] {5, 7}) { // what kubectl opens first is its error stream, then stdin, stdout...
            SpdySynStreamFrame syn = new DefaultSpdySynStreamFrame(id, 0, (byte) 0);
            syn.headers().set("streamtype", id == 5 ? "error" : "stdout");
            codec.writeOutbound(syn);
            frames.add(codec.readOutbound());
            frames.add(spdyData(3));
        }
        ByteBuf all = Unpooled.wrappedBuffer(frames.toArray(ByteBuf[]::new));
        for (int piece : new int[] {1, 3, 9, 1 << 20}) {
            FrameLimit limit = new FrameLimit(StreamKind.Protocol.SPDY, 4096, n -> { });
            assertThat(limit.firstStream()).isEqualTo(-1);
            assertThat(scanInPieces(limit, all.duplicate(), piece)).isEqualTo(-1);
            assertThat(limit.firstStream()).as("pieces of %d", piece).isEqualTo(5);
            assertThat(limit.atBoundary()).isTrue();
        }
    }

    @Test
    void theStatusWrittenOnTheErrorStreamIsAFinalDataFrameAKubernetesClientDecodes() throws Exception {
        EmbeddedChannel codec = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));
        codec.writeInbound(ClusterStream.spdyStatus(5, ClusterStream.Reason.HALTED));
        SpdyDataFrame data = codec.readInbound();
        assertThat(data.streamId()).isEqualTo(5);
        assertThat(data.isLast()).as("FIN: the error stream ends with it").isTrue();
        var status = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(data.content().toString(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("status").asText()).isEqualTo("Failure");
        assertThat(status.path("reason").asText()).isEqualTo("Forbidden");
        assertThat(status.path("code").asInt()).isEqualTo(403);
        assertThat(status.path("message").asText()).isEqualTo("the organization is halted");
        data.release();
    }

    @Test
    void aBreachStopsTheBytesAndIsReportedOnceWithItsSize() {
        List<Long> reported = new ArrayList<>();
        FrameLimit limit = new FrameLimit(StreamKind.Protocol.SPDY, 1024, reported::add);
        EmbeddedChannel channel = new EmbeddedChannel(limit);
        channel.writeInbound(spdyData(100));
        assertThat((ByteBuf) channel.readInbound()).isNotNull();
        channel.writeInbound(spdyData(2000));
        channel.writeInbound(spdyData(10));
        assertThat((Object) channel.readInbound()).as("nothing after the breach is relayed").isNull();
        assertThat(reported).containsExactly(2000L);
        assertThat(limit.bytes()).as("counted up to the breach").isEqualTo(108 + 2008);
    }

    @Test
    void onlyAPodsStreamingSubresourcesAreUpgraded() {
        assertThat(StreamKind.verb("/api/v1/namespaces/a/pods/b/exec")).isEqualTo(StreamKind.Verb.EXEC);
        assertThat(StreamKind.verb("/api/v1/namespaces/a/pods/b/attach")).isEqualTo(StreamKind.Verb.ATTACH);
        assertThat(StreamKind.verb("/api/v1/namespaces/a/pods/b/portforward")).isEqualTo(StreamKind.Verb.PORTFORWARD);
        for (String other : List.of("/api/v1/namespaces/a/pods/b/proxy", "/api/v1/namespaces/a/services/b/proxy",
                "/api/v1/nodes/n/proxy", "/api/v1/namespaces/a/pods/b/exec/x")) {
            assertThatThrownBy(() -> StreamKind.verb(other)).isInstanceOf(ApiProblem.class)
                    .hasMessageContaining("upgrades only");
        }
        assertThat(StreamKind.Protocol.of("WebSocket")).contains(StreamKind.Protocol.WEBSOCKET);
        assertThat(StreamKind.Protocol.of("SPDY/3.1")).contains(StreamKind.Protocol.SPDY);
        assertThat(StreamKind.Protocol.of("h2c")).isEmpty();
    }
}

package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.integers;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;

class ClientHelloTest {

    /** A real ClientHello as the JDK's TLS engine writes it. */
    static byte[] realHello(String sni) throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, null, null);
        SSLEngine engine = ctx.createSSLEngine(sni, 443);
        engine.setUseClientMode(true);
        if (sni != null) {
            SSLParameters p = engine.getSSLParameters();
            p.setServerNames(List.of(new SNIHostName(sni)));
            engine.setSSLParameters(p);
        }
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] b = new byte[out.remaining()];
        out.get(b);
        return b;
    }

    @Test
    void readsTheServerNameOfARealClientHello() throws Exception {
        byte[] b = realHello("api.example.com");
        assertThat(ClientHello.parse(b, b.length)).isEqualTo(new ClientHello.Parsed("api.example.com"));
    }

    @Test
    void asksForMoreUntilTheRecordIsComplete() throws Exception {
        byte[] b = realHello("api.example.com");
        for (int n = 0; n < b.length; n++) {
            assertThat(ClientHello.parse(Arrays.copyOf(b, n), n)).isInstanceOf(ClientHello.NeedMore.class);
        }
    }

    @Test
    void refusesWhatIsNotAClientHello() {
        byte[] http = "GET / HTTP/1.1\r\n\r\n".getBytes();
        assertThat(ClientHello.parse(http, http.length)).isInstanceOf(ClientHello.Malformed.class);
        byte[] lying = {0x16, 3, 1, 0, 8, 1, 0, 0, (byte) 0xff, 3, 3, 0, 0};
        assertThat(ClientHello.parse(lying, lying.length)).isInstanceOf(ClientHello.Malformed.class);
    }

    @Test
    void corruptedServerNameLengthIsMalformedNotAnException() throws Exception {
        byte[] b = realHello("api.example.com");
        byte[] name = "api.example.com".getBytes();
        int at = indexOf(b, name);
        b[at - 1] = (byte) 0xff; // name length now runs past the extension
        assertThat(ClientHello.parse(b, b.length)).isInstanceOf(ClientHello.Malformed.class);
    }

    private static byte[] hello;

    private static synchronized byte[] hello() throws Exception {
        if (hello == null) {
            hello = realHello("x.example.org");
        }
        return hello.clone();
    }

    /** One byte anywhere in a real hello changed: the parser answers with one of its three results. */
    @Test
    void neverThrowsOnMutatedHellos() throws Exception {
        byte[] original = hello();
        QuickTheory.qt().withFixedSeed(0x5EED_0005L).withExamples(300)
                .forAll(integers().between(0, original.length - 1), integers().between(0, 255))
                .checkAssert((position, value) -> {
                    byte[] b = original.clone();
                    b[position] = (byte) (int) value;
                    assertThat(ClientHello.parse(b, b.length)).isInstanceOfAny(ClientHello.Parsed.class,
                            ClientHello.NeedMore.class, ClientHello.Malformed.class);
                });
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}

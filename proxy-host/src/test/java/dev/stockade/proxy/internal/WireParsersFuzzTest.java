package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.stockade.proxy.dial.IpLiterals;

/**
 * Fuzz targets for what the proxy parses from the wire before any decision. Under plain
 * {@code mvn test} they run in regression mode over the seeds in {@code WireParsersFuzzTestInputs/};
 * {@code JAZZER_FUZZ=1} fuzzes for real. Whatever the bytes: no exception, a bounded answer.
 */
class WireParsersFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void clientHello(byte[] data) {
        ClientHello.Result r = ClientHello.parse(data, data.length);
        assertThat(r).isInstanceOfAny(ClientHello.Parsed.class, ClientHello.NeedMore.class,
                ClientHello.Malformed.class);
        if (r instanceof ClientHello.Parsed p && p.sni() != null) {
            assertThat(p.sni().length()).isBetween(1, 253);
            assertThat(p.sni().chars().allMatch(c -> c > 0x20 && c < 0x7f)).isTrue();
        }
    }

    @FuzzTest(maxDuration = "60s")
    void authority(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        Hosts.Authority a = Hosts.parse(text, 443);
        if (a != null) {
            assertThat(a.port()).isBetween(1, 65535);
            // a parsed host is stable under normalisation and never carries separators an origin could split on
            assertThat(Hosts.normalise(a.host())).isEqualTo(a.host());
            assertThat(a.host()).doesNotContain("/", "@", "?", "#", " ", "\r", "\n", "\t", "\u0000");
        }
        byte[] literal = IpLiterals.parse(text);
        assertThat(literal == null || literal.length == 4 || literal.length == 16).isTrue();
    }
}

package dev.stockade.api.kernel.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A URL whose host Java's {@link URI} cannot read as a server (a short IPv4 form) is read by the core's host grammar
 * (issue 25, item 13): it names the address it is, so the dial guard can judge it.
 */
class UrlHostsTest {

    @ParameterizedTest
    @CsvSource({
        "http://127.1/mcp, http://127.0.0.1/mcp",
        "http://0x7f.0.0.1/mcp, http://127.0.0.1/mcp",
        "http://0x7F.1:8443/a/b?x=1, http://127.0.0.1:8443/a/b?x=1",
        "https://10.1/, https://10.0.0.1/",
        "http://169.254.43518/latest, http://169.254.169.254/latest",
    })
    void aShortIpv4HostIsWrittenAsItsDottedQuad(String written, String read) throws Exception {
        URI u = UrlHosts.readable(new URI(written));
        assertThat(u).hasToString(read);
        assertThat(u.getHost()).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com/mcp", "http://127.0.0.1:8080/x", "http://[::1]/", "http://2130706433/",
        "http://0177.0.0.1/", "http://a_b.example/", "http://127.1:99999/"})
    void anyOtherUrlIsLeftAsItIs(String text) throws Exception {
        URI u = new URI(text);
        assertThat(UrlHosts.readable(u)).isSameAs(u);
    }
}

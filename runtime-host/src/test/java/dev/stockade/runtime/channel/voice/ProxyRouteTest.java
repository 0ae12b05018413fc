package dev.stockade.runtime.channel.voice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@code HTTPS_PROXY} is read for the realtime tunnel and what of it the browser inherits. */
class ProxyRouteTest {
    @Test
    void userInformationIsPercentDecodedAndNeverPrinted() {
        ProxyRoute r = ProxyRoute.parse("http://sandbox:p%40ss%2Fw%3Ard@proxy.internal:3128");
        assertThat(r).isEqualTo(new ProxyRoute("proxy.internal", 3128, "sandbox", "p@ss/w:rd"));
        assertThat(r.toString()).isEqualTo("ProxyRoute[***:***@proxy.internal:3128]");
        assertThat(ProxyRoute.parse("http://token@proxy:8080")).isEqualTo(new ProxyRoute("proxy", 8080, "token", ""));
        assertThat(ProxyRoute.parse("http://proxy:8080").authenticatesAs()).isEmpty();
    }

    @Test
    void theBrowsersProxyVariablesLoseTheirUserInformationWhateverThePasswordHolds() {
        Map<String, String> env = new HashMap<>(Map.of(
                "HTTPS_PROXY", "http://sandbox:pa@ss/word@proxy:3128",
                "http_proxy", "user:secret@proxy:3128",
                "ALL_PROXY", "http://proxy:3128",
                "NO_PROXY", "user@example.com"));
        MeetingBrowser.withoutProxyCredentials(env);
        assertThat(env).containsEntry("HTTPS_PROXY", "http://proxy:3128").containsEntry("http_proxy", "proxy:3128")
                .containsEntry("ALL_PROXY", "http://proxy:3128").containsEntry("NO_PROXY", "user@example.com");
    }
}

package dev.stockade.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;

/**
 * Fuzz target for the request-target parser and resolver, which face the agent before any decision.
 * Under plain {@code mvn test} it runs in regression mode over its seeds; {@code JAZZER_FUZZ=1} fuzzes
 * for real. Whatever the bytes: no exception, and a resolved target is one the proxy can forward as is.
 */
class RequestTargetFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void resolve(FuzzedDataProvider data) {
        TargetResolver.Listener listener = data.pickValue(TargetResolver.Listener.values());
        String host = data.consumeString(12);
        List<String> hostHeaders = data.consumeBoolean() ? List.of(data.consumeString(40)) : List.of();
        String uri = data.consumeRemainingAsString();
        TargetResolver.Result r = TargetResolver.resolve(uri, hostHeaders,
                new TargetResolver.Context(listener, Hosts.normalise(host), 443, null, 80));
        assertThat(r).isNotNull();
        if (r instanceof TargetResolver.Resolved ok) {
            assertThat(ok.port()).isBetween(1, 65535);
            assertThat(Hosts.normalise(ok.host())).isEqualTo(ok.host());
            assertThat(ok.path()).startsWith("/");
            String line = ok.path() + (ok.query() == null ? "" : "?" + ok.query());
            // nothing that could split the forwarded request line or smuggle a fragment
            assertThat(line.chars()).noneMatch(c -> c <= 0x20 || c == 0x7f || c == '#');
            assertThat(ok.host()).doesNotContain("/", "@", "?", "#", " ", "\r", "\n");
        }
    }
}

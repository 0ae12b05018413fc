package dev.stockade.api.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.host.sse.SseEvent;
import dev.stockade.host.sse.SseReader;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads the proxy feed as a replica does, over real HTTP, for tests of what the platform sends. */
final class FeedEvents {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private FeedEvents() {
    }

    /**
     * The named events of {@code GET /v1/egress/feed?QUERY} until {@code ready} (comments left out), read with the
     * proxy token; fails if the feed ends first.
     */
    static List<SseEvent> untilReady(URI base, String proxyToken, String query) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/egress/feed?" + query))
                .header("Authorization", "Bearer " + proxyToken).timeout(Duration.ofSeconds(60)).GET().build();
        HttpResponse<InputStream> r = CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        List<SseEvent> out = new ArrayList<>();
        try (SseReader in = new SseReader(r.body())) {
            for (SseEvent e = in.next(); e != null; e = in.next()) {
                if ("ready".equals(e.name())) {
                    return out;
                }
                if (e.name() != null) {
                    out.add(e);
                }
            }
        }
        throw new AssertionError("the feed ended before `ready`");
    }
}

package dev.stockade.api.enrollment;

import dev.stockade.api.support.PlatformTest;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * A platform that is not enrolled, on a known port and public URL, with a hub of its own (the dev hub's wire
 * format) that it reaches through {@code hub.url}: the starting point of the setup screen and the device flow.
 */
abstract class SetupThroughHubTest extends PlatformTest {
    protected final int port = Fixtures.freePort();
    protected final String publicUrl = "http://127.0.0.1:" + port;
    protected final DevHub hub = new DevHub(Fixtures.tempDir().resolve("hub.json"), 0);

    SetupThroughHubTest() throws Exception {
    }

    @Override
    protected final Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>(Map.of("hub.dev", "false", "hub.url", hub.url().toString(),
                "micronaut.server.port", "" + port, "config.public-url", publicUrl));
        p.putAll(hubTestProperties());
        return p;
    }

    /** Further properties of a test class. */
    protected Map<String, String> hubTestProperties() {
        return Map.of();
    }

    @Override
    protected boolean enrolledAtStart() {
        return false;
    }

    @AfterAll
    void stopHub() {
        hub.close();
    }
}

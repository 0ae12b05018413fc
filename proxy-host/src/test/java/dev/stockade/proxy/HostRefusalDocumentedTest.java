package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every reason the proxy itself gives is documented for operators, in the table of docs/proxy.md. */
class HostRefusalDocumentedTest {

    @Test
    void everyHostRefusalHasARowInTheProxyDocs() throws Exception {
        Path doc = Path.of("..", "docs", "proxy.md");
        String text = Files.readString(doc);
        for (HostRefusal r : HostRefusal.values()) {
            assertThat(text).as("docs/proxy.md documents `%s`", r.code()).contains("| `" + r.code() + "` |");
        }
    }
}

package dev.stockade.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.store.Store;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading every document in one transaction (what the system prompt does before each model call) gives what reading
 * them one by one gives: written text, "" for a document never written, and always the bundled Agent Guide.
 */
class DocumentsTest {
    @TempDir
    Path dir;

    @Test
    void readingAllAtOnceMatchesReadingEachDocument() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"))) {
            Documents docs = new Documents(store);
            docs.write(DocumentKind.SOUL, "curious and careful");
            docs.write(DocumentKind.BOOTSTRAP, "ask for the owner's name");
            // a row under the guide's kind (written by hand or an old import) never replaces the bundled guide
            store.update("INSERT INTO documents(kind, content, updated_at) VALUES ('agent-guide', 'forged', 'x')");
            Map<DocumentKind, String> all = docs.readAll();
            assertThat(all).containsOnlyKeys(DocumentKind.values());
            for (DocumentKind k : DocumentKind.values()) {
                assertThat(all.get(k)).as(k.wire()).isEqualTo(docs.read(k));
            }
            assertThat(all.get(DocumentKind.SOUL)).isEqualTo("curious and careful");
            assertThat(all.get(DocumentKind.VISION)).isEmpty();
            assertThat(all.get(DocumentKind.AGENT_GUIDE)).isNotEqualTo("forged").isNotBlank();
        }
    }
}

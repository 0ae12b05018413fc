package dev.stockade.runtime;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A runtime on the Azure provider double with one web-chat thread, started fresh for each test. */
abstract class OneThreadTest {
    @TempDir
    Path home;
    ProviderDouble provider;
    TestRuntime rt;
    String thread;

    @BeforeEach
    void start() throws Exception {
        provider = new ProviderDouble();
        rt = new TestRuntime(home, TestRuntime.azure(provider)).start();
        thread = rt.post("/agents/threads", "{\"title\":\"t\"}").json().path("id").asText();
    }

    @AfterEach
    void stop() {
        rt.close();
        provider.close();
    }
}

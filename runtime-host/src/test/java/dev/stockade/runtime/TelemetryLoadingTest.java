package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Telemetry keeps the OpenTelemetry SDK off the start path: without an endpoint not one of its classes is
 * loaded, so a runtime that exports nothing pays nothing for the SDK. Each case runs the real classes in a
 * fresh class loader that records every class it is asked for.
 */
class TelemetryLoadingTest {
    private static final String TELEMETRY = "dev.stockade.runtime.observe.Telemetry";

    @Test
    void withoutAnEndpointNoOpenTelemetryClassIsLoaded() throws Exception {
        for (String endpoint : new String[] {null, "", "  "}) {
            List<String> loaded = emitOneEvent(endpoint);
            assertThat(loaded).as("endpoint %s", endpoint).contains(TELEMETRY)
                    .noneMatch(name -> name.startsWith("io.opentelemetry."));
        }
    }

    @Test
    void withAnEndpointTheSdkExporterIsLoaded() throws Exception {
        // port 9 (discard) on loopback: nothing listens, and closing bounds the wait for the one batch
        List<String> loaded = emitOneEvent("http://127.0.0.1:9");
        assertThat(loaded).contains("io.opentelemetry.sdk.logs.SdkLoggerProvider",
                "io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter");
    }

    private static List<String> emitOneEvent(String endpoint) throws Exception {
        try (Recording loader = new Recording(testClassPath())) {
            Class<?> telemetry = loader.loadClass(TELEMETRY);
            Object t = telemetry.getMethod("of", String.class, String.class, String.class, String.class)
                    .invoke(null, endpoint, "collector-key", "production", null);
            Method event = telemetry.getMethod("event", String.class, Object[].class);
            event.invoke(t, "agent.turn", new Object[] {"steps", 1, "ok", true});
            telemetry.getMethod("close").invoke(t);
            return List.copyOf(loader.requested);
        }
    }

    /** Surefire runs tests from a manifest-only jar and names the real class path in this property. */
    private static URL[] testClassPath() throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        for (String entry : cp.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }

    /** Defines the application's classes itself (its parent knows only the JDK) and notes each name asked for. */
    private static final class Recording extends URLClassLoader {
        final List<String> requested = Collections.synchronizedList(new ArrayList<>());

        Recording(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            requested.add(name);
            return super.loadClass(name, resolve);
        }
    }
}

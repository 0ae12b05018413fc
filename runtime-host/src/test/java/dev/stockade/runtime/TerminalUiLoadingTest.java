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
import org.junit.jupiter.api.io.TempDir;

/**
 * The terminal UI stays off the server's start path: reading the command line of {@code stockade runtime serve} (every
 * subcommand declared, {@code tui} among them) and loading the configuration load no JLine class and no class of
 * the TUI's package, so the runtime's start time does not pay for a channel it does not run.
 */
class TerminalUiLoadingTest {
    @TempDir
    Path home;

    @Test
    void theServersCommandLineLoadsNoTerminalClass() throws Exception {
        List<String> loaded = readServe();
        assertThat(loaded).contains("dev.stockade.runtime.RuntimeMain$Tui", "dev.stockade.runtime.config.RuntimeConfig")
                .noneMatch(name -> name.startsWith("org.jline."))
                .noneMatch(name -> name.startsWith("dev.stockade.runtime.tui."));
    }

    /** {@code stockade runtime --data-dir <tmp> serve} read, and its configuration loaded, in a fresh class loader. */
    private List<String> readServe() throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        for (String entry : cp.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        try (Recording loader = new Recording(urls.toArray(URL[]::new))) {
            Class<?> commandLine = loader.loadClass("picocli.CommandLine");
            Class<?> runtimeMain = loader.loadClass("dev.stockade.runtime.RuntimeMain");
            Object main = runtimeMain.getDeclaredConstructor().newInstance();
            Object cli = commandLine.getConstructor(Object.class).newInstance(main);
            commandLine.getMethod("parseArgs", String[].class).invoke(cli,
                    (Object) new String[] {"--data-dir", home.toString(), "serve"});
            // The configuration the server starts from, resolved as `serve` does before it binds its port.
            Method load = runtimeMain.getDeclaredMethod("load", runtimeMain);
            load.setAccessible(true);
            load.invoke(null, main);
            return List.copyOf(loader.requested);
        }
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

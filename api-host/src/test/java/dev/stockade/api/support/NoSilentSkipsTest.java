package dev.stockade.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.stockade.testing.NoSilentSkips;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * A test that skips for want of a tool is failed where skips must not hide (CI), and skipped, naming what to install,
 * elsewhere: the classes below are run through the real JUnit launcher with the extension found as in the build.
 */
class NoSilentSkipsTest {
    /** Skips in {@code @BeforeAll}, as the sandbox classes do (not run by the build: surefire skips nested classes). */
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    static class NeedsAMissingTool {
        @BeforeAll
        void tools() {
            Requires.executable("/nonexistent/stockade-tool", "stockade-tool");
        }

        @Test
        void runs() {
        }
    }

    /** Skips in the test itself, as the PostgreSQL 15 migration test does. */
    static class NeedsAnUnsetVariable {
        @Test
        void runs() {
            Requires.environment("STOCKADE_NO_SUCH_VARIABLE_" + System.nanoTime(), "set it to anything");
        }
    }

    /** Skips in {@code @BeforeEach} for a command not on {@code PATH}, as the kubectl test does. */
    static class NeedsACommandNotOnPath {
        @BeforeEach
        void command() {
            Requires.onPath("stockade-no-such-command", "stockade-command");
        }

        @Test
        void runs() {
        }
    }

    private record Outcome(TestExecutionResult.Status status, String message) {
    }

    private static Outcome run(Class<?> test, boolean failSkips) {
        List<Outcome> outcomes = new ArrayList<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (!id.isContainer() || result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    outcomes.add(new Outcome(result.getStatus(), result.getThrowable().map(Throwable::getMessage)
                            .orElse("")));
                }
            }
        };
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(test))
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .configurationParameter(NoSilentSkips.PARAMETER, Boolean.toString(failSkips)).build(), listener);
        assertThat(outcomes).as("one outcome of %s", test.getSimpleName()).hasSize(1);
        return outcomes.get(0);
    }

    @Test
    void inCiASkipInBeforeAllOrInTheTestFailsAndSaysWhatWasMissing() {
        for (Class<?> test : List.of(NeedsAMissingTool.class, NeedsAnUnsetVariable.class,
                NeedsACommandNotOnPath.class)) {
            Outcome o = run(test, true);
            assertThat(o.status()).as(test.getSimpleName()).isEqualTo(TestExecutionResult.Status.FAILED);
            assertThat(o.message()).contains("may not skip in CI");
        }
        assertThat(run(NeedsAMissingTool.class, true).message()).contains("apt-get install stockade-tool");
        assertThat(run(NeedsACommandNotOnPath.class, true).message())
                .contains("`stockade-no-such-command` is not on PATH").contains("apt-get install stockade-command");
    }

    @Test
    void elsewhereTheSkipStandsAndNamesWhatToInstall() {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI")); // CI itself fails every skip
        Outcome o = run(NeedsAMissingTool.class, false);
        assertThat(o.status()).isEqualTo(ci ? TestExecutionResult.Status.FAILED : TestExecutionResult.Status.ABORTED);
        assertThat(o.message()).contains("/nonexistent/stockade-tool is missing: install it with"
                + " `apt-get install stockade-tool`");
    }

    @Test
    void aCommandOnPathIsTheOneTheShellRuns() throws Exception {
        Process shell = new ProcessBuilder("sh", "-c", "command -v sh").start();
        String found = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(shell.waitFor()).isZero();
        assertThat(Requires.onPath("sh", "dash")).isEqualTo(Path.of(found));
    }
}

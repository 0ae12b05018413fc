package dev.stockade.testing;

import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Turns a skipped test (a failed assumption: no bubblewrap, not root, no PostgreSQL 15) into a failure where skipping
 * would hide a gap: in CI ({@code CI=true}, which {@code .ci/run} also sets, after installing every tool the tests
 * assume) or when the configuration parameter {@value #PARAMETER} is true. Elsewhere the skip stands, and its message
 * says what to install ({@link Requires}). Registered for every test class through the service loader.
 */
public final class NoSilentSkips implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {
    /** The JUnit configuration parameter that makes skips fail outside CI too. */
    public static final String PARAMETER = "stockade.skips.fail";

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable t) throws Throwable {
        throw judged(context, t);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable t) throws Throwable {
        throw judged(context, t);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable t) throws Throwable {
        throw judged(context, t);
    }

    private static Throwable judged(ExtensionContext context, Throwable t) {
        if (!(t instanceof TestAbortedException) || !failing(context.getConfigurationParameter(PARAMETER))) {
            return t;
        }
        AssertionFailedError failure = new AssertionFailedError("this test may not skip in CI (CI=true): "
                + t.getMessage() + "; .ci/run installs what the tests need, so a skip here means a check that did"
                + " not run");
        failure.addSuppressed(t);
        return failure;
    }

    private static boolean failing(Optional<String> parameter) {
        return "true".equalsIgnoreCase(System.getenv("CI")) || parameter.map(Boolean::parseBoolean).orElse(false);
    }
}

package dev.stockade.runtime.config;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The environment of every process the runtime starts for the agent: only the allowlisted variables of the
 * runtime's own environment, so that a prompt-injected agent running {@code env} finds no provider key, token
 * or password of the runtime. The list is documented in docs/runtime.md ("The shell tool's environment").
 */
public final class ChildEnvironment {
    /** Variables passed through by exact name: a working shell, and the sandbox's egress and trust settings. */
    public static final Set<String> ALLOWED = Set.of(
            "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR",
            // The sandbox's egress proxy (its password names the sandbox to its own proxy, which applies the
            // sandbox's policy) and the interception CA: without them the tools reach nothing.
            "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy",
            "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
            "NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO", "STOCKADE_CA_FILE");
    /** Name prefixes passed through: the locale categories ({@code LC_ALL}, {@code LC_CTYPE}, ...). */
    public static final List<String> ALLOWED_PREFIXES = List.of("LC_");

    private final Map<String, String> variables;

    private ChildEnvironment(Map<String, String> variables) {
        this.variables = Map.copyOf(variables);
    }

    /** The allowlisted part of {@code runtimeEnvironment}; everything else stays with the runtime. */
    public static ChildEnvironment of(Map<String, String> runtimeEnvironment) {
        Map<String, String> out = new TreeMap<>();
        runtimeEnvironment.forEach((name, value) -> {
            if (allowed(name) && value != null) {
                out.put(name, value);
            }
        });
        return new ChildEnvironment(out);
    }

    /** Whether a child may see the variable {@code name}. */
    public static boolean allowed(String name) {
        return ALLOWED.contains(name) || ALLOWED_PREFIXES.stream()
                .anyMatch(p -> name.startsWith(p) && name.length() > p.length());
    }

    /** The variables a child gets. */
    public Map<String, String> variables() {
        return variables;
    }

    /**
     * A process builder for {@code command} whose environment is exactly {@link #variables()}: the one way the
     * runtime starts a child (an architecture test holds every other class to it).
     */
    public ProcessBuilder processBuilder(List<String> command) {
        ProcessBuilder b = new ProcessBuilder(command);
        Map<String, String> env = b.environment();
        env.clear(); // ProcessBuilder starts from the runtime's whole environment
        env.putAll(variables);
        return b;
    }
}

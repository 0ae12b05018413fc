package dev.stockade.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.policy.compiler.Enforcement;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Sandboxes that share one proxy, each identified by the token in its {@code Proxy-Authorization}
 * header and enforced by its own policy set. Tokens are kept only as SHA-256 digests.
 */
public final class SandboxRegistry implements AutoCloseable {

    /**
     * One sandbox: its name, the enforcement of its policy set (the core's program), and its own credentials ({@code null}: the proxy's
     * credential store). Credentials of one sandbox never serve another's sentinels.
     */
    public record Sandbox(String name, Supplier<Enforcement> enforcement, CredentialStore credentials) {
        public Sandbox(String name, Supplier<Enforcement> enforcement) {
            this(name, enforcement, null);
        }
    }

    private final Map<String, Sandbox> byDigest;
    private final List<AutoCloseable> owned;

    private SandboxRegistry(Map<String, Sandbox> byDigest, List<AutoCloseable> owned) {
        this.byDigest = new java.util.concurrent.ConcurrentHashMap<>(byDigest);
        this.owned = List.copyOf(owned);
    }

    /** A registry over given tokens (token to sandbox). */
    public static SandboxRegistry of(Map<String, Sandbox> byToken) {
        Map<String, Sandbox> m = new HashMap<>();
        byToken.forEach((token, sb) -> m.put(digest(token), sb));
        return new SandboxRegistry(m, List.of());
    }

    /**
     * Reads {@code {"sandboxes":[{"name","token","policy":[paths],"ceiling":[paths]}]}}; paths are
     * relative to the file. Each sandbox's policies are compiled and watched like {@code --policy}.
     */
    public static SandboxRegistry file(Path file, PrintStream log) throws IOException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new IOException("sandbox file `" + file + "` is not valid JSON");
        }
        JsonNode list = root == null ? null : root.get("sandboxes");
        if (list == null || !list.isArray()) {
            throw new IOException("sandbox file `" + file + "` needs a `sandboxes` array");
        }
        Path base = file.toAbsolutePath().getParent();
        Map<String, Sandbox> m = new HashMap<>();
        List<AutoCloseable> owned = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode n = list.get(i);
            String name = n.path("name").asText("");
            String token = n.path("token").asText("");
            if (name.isEmpty() || token.length() < 16) {
                throw new IOException("sandbox file `" + file + "`: entry " + i
                        + " needs a name and a token of at least 16 characters");
            }
            List<Path> policies = paths(base, n.path("policy"));
            if (policies.isEmpty()) {
                throw new IOException("sandbox file `" + file + "`: sandbox `" + name + "` names no policy");
            }
            PolicySource source = PolicySource.load(policies, paths(base, n.path("ceiling")), log);
            source.watch();
            owned.add(source);
            if (m.put(digest(token), new Sandbox(name, source)) != null) {
                throw new IOException("sandbox file `" + file + "`: two sandboxes share a token");
            }
        }
        return new SandboxRegistry(m, owned);
    }

    /** An empty registry that a control plane fills and changes while the proxy runs. */
    public static SandboxRegistry dynamic() {
        return new SandboxRegistry(Map.of(), List.of());
    }

    /**
     * Adds or replaces the sandbox whose token has this SHA-256 digest (lowercase hex); a connection already
     * identified keeps the sandbox it was given until it closes.
     */
    public void put(String tokenDigestHex, Sandbox sandbox) {
        byDigest.put(tokenDigestHex, sandbox);
    }

    /** Forgets the sandbox whose token has this digest: its next connection is refused (407). */
    public void remove(String tokenDigestHex) {
        byDigest.remove(tokenDigestHex);
    }

    /** The policy sources of the sandboxes read from a file (none for {@link #of}), e.g. to count reloads. */
    public List<PolicySource> policySources() {
        return owned.stream().filter(PolicySource.class::isInstance).map(PolicySource.class::cast).toList();
    }

    /** The sandbox a {@code Proxy-Authorization} value identifies (Basic with the token as password, or Bearer). */
    public Optional<Sandbox> identify(String proxyAuthorization) {
        if (proxyAuthorization == null) {
            return Optional.empty();
        }
        String v = proxyAuthorization.strip();
        String token = null;
        if (v.regionMatches(true, 0, "Bearer ", 0, 7)) {
            token = v.substring(7).strip();
        } else if (v.regionMatches(true, 0, "Basic ", 0, 6)) {
            try {
                String pair = new String(Base64.getDecoder().decode(v.substring(6).strip()), StandardCharsets.UTF_8);
                int colon = pair.indexOf(':');
                token = colon < 0 ? pair : pair.substring(colon + 1);
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        return token == null || token.isEmpty() ? Optional.empty() : Optional.ofNullable(byDigest.get(digest(token)));
    }

    private static List<Path> paths(Path base, JsonNode node) {
        List<Path> out = new ArrayList<>();
        if (node.isTextual()) {
            out.add(base.resolve(node.asText()));
        } else if (node.isArray()) {
            node.forEach(p -> out.add(base.resolve(p.asText())));
        }
        return out;
    }

    private static String digest(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    @Override
    public String toString() {
        return "SandboxRegistry[" + byDigest.size() + " sandboxes]";
    }
}

package dev.stockade.cli.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The stored login: the platform's URL and the token, in {@code $STOCKADE_CONFIG} or
 * {@code ${XDG_CONFIG_HOME:-~/.config}/stockade/credentials.json}, mode 0600 in a 0700 directory. A browser sign-in
 * ({@code stockade login --url}) also keeps what renews and revokes it ({@link Refreshable}).
 */
public record Credentials(String url, String token, Refreshable oauth) {
    /**
     * What a browser sign-in keeps beside its access token: the refresh token, the client it was issued to, where
     * to renew and revoke it, and when the access token expires (epoch seconds).
     */
    public record Refreshable(String clientId, String refreshToken, URI tokenEndpoint, URI revocationEndpoint,
                              long expiresAt) {
        @Override
        public String toString() {
            return "Refreshable[clientId=" + clientId + ", refreshToken=(hidden)]";
        }
    }

    /** A login by token file: nothing to renew. */
    public Credentials(String url, String token) {
        this(url, token, null);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    /** Where the login is kept for this environment. */
    public static Path location(Map<String, String> env) {
        String explicit = env.get("STOCKADE_CONFIG");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".config");
        return base.resolve("stockade").resolve("credentials.json");
    }

    /** The stored login, if any; a file that exists but cannot be read is a usage failure. */
    public static Optional<Credentials> load(Path file) {
        try {
            JsonNode node = JSON.readTree(Files.readString(file));
            String url = node.path("url").asText("");
            String token = node.path("token").asText("");
            if (url.isEmpty() || token.isEmpty()) {
                throw Failure.usage(Text.shown(file) + ": not a Stockade login (needs `url` and `token`); run `stockade login`");
            }
            JsonNode o = node.path("oauth");
            Refreshable oauth = !o.isObject() ? null : new Refreshable(o.path("clientId").asText(),
                    o.path("refreshToken").asText(), URI.create(o.path("tokenEndpoint").asText()),
                    URI.create(o.path("revocationEndpoint").asText()), o.path("expiresAt").asLong());
            return Optional.of(new Credentials(url, token, oauth));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            throw Failure.usage(Text.shown(file) + ": a stored endpoint is not a URL; run `stockade login` again");
        } catch (IOException e) {
            throw Failure.usage("cannot read " + Text.shown(file) + ": " + Text.shown(e.getMessage()));
        }
    }

    /** Writes the login atomically: a 0600 temporary file in the same directory, then a rename. */
    public void save(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            }
            Path tmp = Files.createTempFile(dir, ".credentials", ".tmp",
                    PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            try {
                ObjectNode node = JSON.createObjectNode().put("url", url).put("token", token);
                if (oauth != null) {
                    node.putObject("oauth").put("clientId", oauth.clientId()).put("refreshToken", oauth.refreshToken())
                            .put("tokenEndpoint", oauth.tokenEndpoint().toString())
                            .put("revocationEndpoint", oauth.revocationEndpoint().toString())
                            .put("expiresAt", oauth.expiresAt());
                }
                Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n");
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw Failure.usage("cannot store the login in " + Text.shown(file) + ": "
                    + Text.shown(e.getMessage()));
        }
    }

    /** Removes the stored login; true when there was one. */
    public static boolean delete(Path file) {
        try {
            return Files.deleteIfExists(file);
        } catch (IOException e) {
            throw Failure.usage("cannot remove " + Text.shown(file) + ": " + Text.shown(e.getMessage()));
        }
    }

    @Override
    public String toString() {
        return "Credentials[url=" + url + ", token=(hidden)" + (oauth == null ? "" : ", " + oauth) + "]";
    }
}

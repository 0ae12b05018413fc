package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade proxy-tokens ...}: tokens of separate egress proxy replicas (the installation owner's). */
@Command(name = "proxy-tokens", mixinStandardHelpOptions = true, description = "Tokens of separate egress proxy"
        + " replicas: each reads the platform's proxy feed (stockade proxy --platform URL --platform-token-file FILE)"
        + " and nothing else. The installation owner manages them.")
public final class ProxyTokensCommand extends Group {
    @Command(name = "list", mixinStandardHelpOptions = true, description = "The installation's proxy tokens.")
    int list(@Mixin ApiOptions api) {
        return Tokens.list(api, "/v1/proxy-tokens");
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a proxy token; its secret is"
            + " printed once, or written to --out.")
    int create(@Parameters(paramLabel = "NAME") String name,
               @Option(names = "--out", paramLabel = "FILE", description = "Write the token to this new file (mode"
                       + " 0600) instead of printing it: the file --platform-token-file reads.") Path file,
               @Mixin ApiOptions api) {
        if (file == null) {
            return Tokens.create(api, "/v1/proxy-tokens", name, null);
        }
        return api.call((client, out) -> {
            if (Files.exists(file)) {
                throw Failure.usage(Text.shown(file) + " exists: choose a new file for the token");
            }
            JsonNode created = client.post("/v1/proxy-tokens", Map.of("name", name));
            write(file, created.path("token").asText());
            out.done("created proxy token " + created.path("id").asText() + " (" + name + "); the token is in "
                    + file + " (mode 0600)");
        });
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a proxy token: its open feeds"
            + " close at once; the replica keeps enforcing its last good sets.")
    int revoke(@Parameters(paramLabel = "TOKEN_ID") String id, @Mixin ApiOptions api) {
        return Tokens.revoke(api, "/v1/proxy-tokens/" + seg(id), id, "proxy token");
    }

    private static void write(Path file, String token) {
        try {
            Files.writeString(Files.createFile(file, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------"))), token + "\n");
        } catch (FileAlreadyExistsException e) {
            throw Failure.usage(Text.shown(file) + " exists: the token was created but not written; revoke it and choose"
                    + " another file");
        } catch (IOException | UnsupportedOperationException e) {
            throw Failure.usage("cannot write " + Text.shown(file) + ": " + Text.shown(e.getMessage()));
        }
    }
}

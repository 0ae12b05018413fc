package dev.stockade.cli.rest;

import dev.stockade.policy.text.Quoted;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Documents the governance commands send as written: a file, or standard input for {@code -}. */
final class GovernanceFiles {
    private static final int MAX = 1 << 20;

    private GovernanceFiles() {
    }

    /** A secret from a file or standard input ({@code -}), without the one trailing newline an editor adds. */
    static String secret(String file, java.io.InputStream in) {
        String text = read(file, in);
        return text.endsWith("\r\n") ? text.substring(0, text.length() - 2)
                : text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    }

    /** The text of {@code file} ({@code -}: {@code stdin}), at most 1 MiB. */
    static String read(String file, java.io.InputStream stdin) {
        try {
            byte[] bytes = file.equals("-") ? stdin.readNBytes(MAX + 1) : Files.readAllBytes(Path.of(file));
            if (bytes.length > MAX) {
                throw Failure.usage(Quoted.input(file, Text::safe) + " is larger than 1 MiB");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw Failure.usage("cannot read " + Quoted.input(file, Text::safe) + ": " + e.getClass().getSimpleName());
        }
    }

    /** YAML unless the file is named {@code .json} or the text starts like JSON. */
    static String contentType(String file, String text) {
        String t = text.stripLeading();
        return file.endsWith(".json") || t.startsWith("{") ? "application/json" : "application/yaml";
    }

    /** {@code /v1/orgs/ID} or {@code /v1/projects/ID}: exactly one of the two. */
    static String scope(String org, String project) {
        if ((org == null) == (project == null)) {
            throw Failure.usage("name exactly one of --org and --project");
        }
        return org != null ? "/v1/orgs/" + ApiClient.seg(org) : "/v1/projects/" + ApiClient.seg(project);
    }
}

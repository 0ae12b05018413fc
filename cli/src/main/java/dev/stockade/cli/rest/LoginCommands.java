package dev.stockade.cli.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.cli.Stockade;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code stockade login}, {@code logout} and {@code whoami}: the stored sign-in of the REST commands. */
public final class LoginCommands {
    /** The fields of {@code GET /v1/auth/me}. */
    static final List<Output.Column> ME = List.of(Output.Column.of("TYPE", "type"), Output.Column.of("ID", "id"),
            Output.Column.of("ORG", "orgId"), Output.Column.of("PROJECT", "projectId"),
            Output.Column.of("EMAIL", "email"), Output.Column.of("NAME", "name"));

    private LoginCommands() {
    }

    /**
     * {@code stockade login --url URL}: signs in through the browser (loopback flow, PKCE S256); with
     * {@code --token-file F}, checks that token instead. Either way the login is checked and stored.
     */
    @Command(name = "login", mixinStandardHelpOptions = true,
            description = "Sign in through the browser (the address is opened, or printed), or with --token-file"
                    + " for automation; the login is checked (GET /v1/auth/me) and stored with the URL in"
                    + " ~/.config/stockade/credentials.json (mode 0600), or in $STOCKADE_CONFIG.")
    public static final class Login implements Callable<Integer> {
        @Option(names = "--url", paramLabel = "URL", description = "The platform's URL (default: STOCKADE_URL).")
        String url;

        @Option(names = "--token-file", paramLabel = "FILE",
                description = "File holding a token, for example <data-dir>/owner-token; - reads standard input."
                        + " Without it, sign in through the browser.")
        String tokenFile;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
                description = "table (default), json (the answer of GET /v1/auth/me) or id.")
        Output.Format format;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Map<String, String> env = ((Stockade) spec.root().userObject()).env();
            Output out = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), format);
            return ApiOptions.guard(out, () -> {
                String u = url != null ? url : env.get("STOCKADE_URL");
                if (u == null || u.isBlank()) {
                    throw Failure.usage("give the platform's URL: --url URL (or STOCKADE_URL)");
                }
                URI base = ApiClient.parseUrl(u);
                Credentials login = tokenFile != null ? new Credentials(base.toString(),
                        readToken(tokenFile, ((Stockade) spec.root().userObject()).in()))
                        : new BrowserLogin().signIn(base, env, spec.commandLine().getErr());
                JsonNode me = new ApiClient(base, login.token()).get("/v1/auth/me");
                Path file = Credentials.location(env);
                login.save(file);
                if (!loopbackOrTls(base)) {
                    out.note("warning: " + base + " is plain HTTP to another machine; the token crosses the network"
                            + " unencrypted");
                }
                out.record(me, ME);
                out.done("signed in to " + base + " as " + me.path("type").asText() + " (login stored in "
                        + file + ")");
            });
        }
    }

    /**
     * {@code stockade logout}: revokes a browser sign-in's refresh token at the platform and forgets the stored login
     * (a token from --token-file stays valid until revoked).
     */
    @Command(name = "logout", mixinStandardHelpOptions = true,
            description = "Revoke a browser sign-in and remove the stored login. A token stored with --token-file"
                    + " stays valid until revoked (stockade tokens revoke).")
    public static final class Logout implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Map<String, String> env = ((Stockade) spec.root().userObject()).env();
            Output out = new Output(spec.commandLine().getOut(), spec.commandLine().getErr(), Output.Format.table);
            return ApiOptions.guard(out, () -> {
                Path file = Credentials.location(env);
                Credentials.load(file).map(Credentials::oauth).ifPresent(o -> new BrowserLogin().revoke(o));
                out.done(Credentials.delete(file) ? "signed out (removed " + file + ")" : "not signed in");
            });
        }
    }

    /** {@code stockade whoami}: the identity behind the token in use. */
    @Command(name = "whoami", mixinStandardHelpOptions = true,
            description = "Show who the platform takes you for (GET /v1/auth/me).")
    public static final class Whoami implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Override
        public Integer call() {
            return api.call((client, out) -> {
                JsonNode me = client.get("/v1/auth/me");
                out.record(me, ME);
                out.done("at " + client.base());
            });
        }
    }

    static String readToken(String source, java.io.InputStream stdin) {
        String text;
        try {
            text = source.equals("-") ? new String(stdin.readNBytes(64 * 1024), StandardCharsets.UTF_8)
                    : Files.readString(Path.of(source));
        } catch (NoSuchFileException e) {
            throw Failure.usage("cannot read the token file " + Text.shown(source) + ": no such file");
        } catch (AccessDeniedException e) {
            throw Failure.usage("cannot read the token file " + Text.shown(source) + ": permission denied");
        } catch (IOException | RuntimeException e) {
            throw Failure.usage("cannot read the token file " + Text.shown(source) + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : Text.safe(e.getMessage())));
        }
        String token = text.strip();
        if (token.isEmpty() || token.chars().anyMatch(c -> c <= ' ' || c >= 0x7f)) {
            throw Failure.usage("the token file " + Text.shown(source) + " must hold one token on one line");
        }
        return token;
    }

    private static boolean loopbackOrTls(URI base) {
        if (base.getScheme().equalsIgnoreCase("https")) {
            return true;
        }
        try {
            return InetAddress.getByName(base.getHost()).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }
}

package dev.stockade.cli.rest;

import dev.stockade.cli.Stockade;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every REST command shares ({@code --url}, {@code --token}, {@code --format}) and the one place
 * where the platform to talk to is chosen and failures become exit statuses. Flags win over {@code STOCKADE_URL}
 * and {@code STOCKADE_TOKEN}, which win over the stored login; the stored token is only sent to the URL it was
 * stored for.
 */
public final class ApiOptions {
    @Option(names = "--url", paramLabel = "URL",
            description = "The platform's URL (default: STOCKADE_URL, else the stored login).")
    String url;

    @Option(names = "--token", paramLabel = "TOKEN", description = "API token (default: STOCKADE_TOKEN, else the stored"
            + " login). Prefer STOCKADE_TOKEN: other users of this machine can read command lines.")
    String token;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "table (default, for people), json (the API's JSON) or id (only the ids, one a line).")
    Output.Format format;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** A command's work, given a client and the output. */
    @FunctionalInterface
    public interface Body {
        void run(ApiClient api, Output out);
    }

    /** Runs {@code body} against the resolved platform and token; returns the exit status. */
    public int call(Body body) {
        return call(true, body);
    }

    /** As {@link #call(Body)}; {@code needToken} false for the routes that need no sign-in. */
    public int call(boolean needToken, Body body) {
        Output out = output();
        return guard(out, () -> body.run(client(needToken), out));
    }

    /** Runs {@code work}, mapping a refusal to exit 1 and other failures to their status, each reported once. */
    static int guard(Output out, Runnable work) {
        try {
            work.run();
            return Exit.OK;
        } catch (Refused r) {
            out.problem(r);
            return Exit.REFUSED;
        } catch (Failure f) {
            out.failure(f);
            return f.exit();
        }
    }

    Output output() {
        return new Output(mixee.commandLine().getOut(), mixee.commandLine().getErr(), format);
    }

    Map<String, String> env() {
        return ((Stockade) mixee.root().userObject()).env();
    }

    /** The standard input of this run ({@code -} for a file, {@code exec -i}). */
    java.io.InputStream in() {
        return ((Stockade) mixee.root().userObject()).in();
    }

    /** Standard output as bytes ({@code sandbox copy ID:PATH -}); null when this run has only a writer. */
    java.io.OutputStream bytesOut() {
        return ((Stockade) mixee.root().userObject()).bytesOut();
    }

    ApiClient client(boolean needToken) {
        return connect(url, token, env(), needToken);
    }

    /**
     * The client for a platform URL and token given as flags (either null), else {@code STOCKADE_URL} and
     * {@code STOCKADE_TOKEN}, else the stored login; a {@link Failure} when none is usable.
     */
    /** The stored login, renewed first when it is a browser sign-in whose access token has (nearly) expired. */
    static Credentials renewed(Credentials stored, Map<String, String> env) {
        if (stored.oauth() == null || stored.oauth().expiresAt() > java.time.Instant.now().getEpochSecond() + 30) {
            return stored;
        }
        Credentials fresh = new BrowserLogin().refresh(stored);
        fresh.save(Credentials.location(env));
        return fresh;
    }

    static ApiClient connect(String url, String token, Map<String, String> env, boolean needToken) {
        Optional<Credentials> stored = Optional.empty();
        String u = first(url, env.get("STOCKADE_URL"));
        String t = first(token, env.get("STOCKADE_TOKEN"));
        if (u == null || (t == null && needToken)) {
            stored = Credentials.load(Credentials.location(env));
        }
        if (u == null) {
            u = stored.map(Credentials::url).orElseThrow(() -> notSignedIn(env));
        }
        URI base = ApiClient.parseUrl(u);
        if (t == null && stored.isPresent()) {
            if (ApiClient.parseUrl(stored.get().url()).equals(base)) {
                t = renewed(stored.get(), env).token();
            } else if (needToken) {
                throw Failure.usage("the stored login is for " + Text.shown(stored.get().url()) + ", not " + base
                        + "; give --token or STOCKADE_TOKEN for " + base);
            }
        }
        if (t == null && needToken) {
            throw notSignedIn(env);
        }
        return new ApiClient(base, t);
    }

    private static Failure notSignedIn(Map<String, String> env) {
        return Failure.usage("not signed in (no login in " + Credentials.location(env) + "): run `stockade login"
                + " --url URL --token-file FILE`, or set STOCKADE_URL and STOCKADE_TOKEN");
    }

    private static String first(String flag, String variable) {
        if (flag != null && !flag.isBlank()) {
            return flag.trim();
        }
        return variable != null && !variable.isBlank() ? variable.trim() : null;
    }
}

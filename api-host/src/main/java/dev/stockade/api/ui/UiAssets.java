package dev.stockade.api.ui;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The admin UI's static files, read from the classpath: the project's own under {@code ui/}, and maintained front-end
 * packages that Maven fetches as WebJars under {@code vendor/} (so no npm build step). Each file is read once and
 * answered with a strong ETag; browsers revalidate, so a new release is picked up without stale scripts.
 */
@Singleton
final class UiAssets {
    private static final String OWN = "ui/";
    private static final String VENDOR = "vendor/";
    private static final String WEBJARS = "META-INF/resources/webjars/";
    /** Plain relative names only: no {@code ..}, no leading slash, no encoded tricks reach the class loader. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9@_-][A-Za-z0-9@_.-]*(/[A-Za-z0-9@_-][A-Za-z0-9@_.-]*)*");
    private static final Map<String, String> TYPES = Map.of(
            "js", "text/javascript; charset=utf-8", "mjs", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png",
            "woff2", "font/woff2", "json", "application/json", "map", "application/json");

    private record Asset(byte[] bytes, String type, String etag) {
    }

    private final Map<String, Optional<Asset>> cache = new ConcurrentHashMap<>();

    /** The address the page uses for one of the UI's own files. */
    String url(String name) {
        return "/ui/assets/" + name;
    }

    MutableHttpResponse<?> serve(String name, @Nullable String ifNoneMatch) {
        if (name.length() > 200 || !NAME.matcher(name).matches() || name.contains("..")) {
            throw new ApiProblem(ProblemCode.NOT_FOUND, "no UI asset `" + name.replaceAll("[^ -~]", "?") + "`");
        }
        Asset asset = cache.computeIfAbsent(name, UiAssets::load)
                .orElseThrow(() -> new ApiProblem(ProblemCode.NOT_FOUND, "no UI asset `" + name + "`"));
        if (asset.etag().equals(ifNoneMatch)) {
            return HttpResponse.status(HttpStatus.NOT_MODIFIED).header("ETag", asset.etag());
        }
        return HttpResponse.ok(asset.bytes()).header("Content-Type", asset.type()).header("ETag", asset.etag())
                .header("Cache-Control", "no-cache").header("X-Content-Type-Options", "nosniff");
    }

    private static Optional<Asset> load(String name) {
        int dot = name.lastIndexOf('.');
        String type = dot < 0 ? null : TYPES.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
        if (type == null) {
            return Optional.empty();
        }
        String resource = name.startsWith(VENDOR) ? WEBJARS + name.substring(VENDOR.length()) : OWN + name;
        try (InputStream in = UiAssets.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            byte[] bytes = in.readAllBytes();
            return Optional.of(new Asset(bytes, type, "\"" + sha256(bytes) + "\""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

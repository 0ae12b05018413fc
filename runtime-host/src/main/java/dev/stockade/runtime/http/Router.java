package dev.stockade.runtime.http;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Routes by method and path template ({@code /agents/webhooks/{name}}); a template segment in braces
 * binds one path segment. Matching is linear in the number of routes and segments.
 */
public final class Router {
    /** A request handler; throw {@link HttpProblem} for an error answer. */
    @FunctionalInterface
    public interface Handler {
        Response handle(Request request) throws Exception;
    }

    /** A matched route: its handler and bound path parameters. */
    public record Match(Handler handler, Map<String, String> params) {
    }

    private record Route(String method, String[] segments, Handler handler) {
    }

    private final List<Route> routes = new ArrayList<>();

    /** Adds a route. */
    public Router add(String method, String template, Handler handler) {
        routes.add(new Route(method, split(template), handler));
        return this;
    }

    /** The route for {@code method} and {@code path}; a 404 or 405 problem when none matches. */
    public Match match(String method, String path) {
        String[] segs = split(path);
        boolean pathKnown = false;
        for (Route r : routes) {
            Map<String, String> params = bind(r.segments(), segs);
            if (params == null) {
                continue;
            }
            pathKnown = true;
            if (r.method().equals(method)) {
                return new Match(r.handler(), params);
            }
        }
        if (pathKnown) {
            throw new HttpProblem(405, "method-not-allowed", "`" + method + "` is not allowed on this path");
        }
        throw new HttpProblem(404, "not-found", "no such endpoint");
    }

    private static Map<String, String> bind(String[] template, String[] path) {
        if (template.length != path.length) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < template.length; i++) {
            String t = template[i];
            if (t.startsWith("{") && t.endsWith("}")) {
                params.put(t.substring(1, t.length() - 1), path[i]);
            } else if (!t.equals(path[i])) {
                return null;
            }
        }
        return params;
    }

    private static String[] split(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.isEmpty() ? new String[0] : p.split("/", -1);
    }
}

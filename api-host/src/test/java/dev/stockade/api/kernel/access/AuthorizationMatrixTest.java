package dev.stockade.api.kernel.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteInfo;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The authorization matrix: every route the router serves, called by eleven kinds of caller, must answer exactly what
 * {@code access/rest-matrix.csv} says. That table is written from the spec's authentication rules and the documented
 * roles, never from {@link Action}: a refusal is its exact status (401 without a usable token, 403 within the
 * caller's organization, 404 across organizations) and an allowed call its exact success status, on real ids, so the
 * handler ran (where no such resource can exist here, the handler's own answer naming the id it did not find).
 */
@MicronautTest(transactional = false)
class AuthorizationMatrixTest extends OidcPlatformTest {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z]+)}");
    /** A body's prefix in the table and the content type it is sent as. */
    private static final Map<String, String> BODY_TYPES = Map.of("@form ", "application/x-www-form-urlencoded",
            "@ndjson ", "application/x-ndjson");

    @Inject
    Router router;

    /** The callers, in the table's column order after method, path and body. */
    enum Who {
        ANONYMOUS, OWNER, ORG_ADMIN, ORG_MEMBER, STRANGER, PROJECT_ADMIN_TOKEN, PLAIN_TOKEN, FOREIGN_TOKEN, SANDBOX,
        CLUSTER, PROXY
    }

    private record Row(String method, String path, String body, Map<Who, String> expected) {
        /** Whether the router serves HEAD for this row: every GET but the WebSocket upgrades (exec, realtime). */
        boolean headToo() {
            return method.equals("GET") && !path.endsWith("/exec") && !path.contains("/llm/");
        }

        String key() {
            return method + " " + PLACEHOLDER.matcher(path.replaceFirst("\\?.*$", "")).replaceAll("{}");
        }
    }

    private static List<Row> table() throws IOException {
        List<Row> rows = new ArrayList<>();
        try (InputStream in = AuthorizationMatrixTest.class.getResourceAsStream("/access/rest-matrix.csv")) {
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
            assertThat(lines.get(0)).isEqualTo("method;path;body;anonymous;owner;org-admin;org-member;stranger;"
                    + "project-admin-token;plain-token;foreign-token;sandbox;cluster;proxy");
            for (String line : lines.subList(1, lines.size())) {
                String[] cells = line.split(";", -1);
                assertThat(cells).as(line).hasSize(3 + Who.values().length);
                Map<Who, String> expected = new EnumMap<>(Who.class);
                for (Who who : Who.values()) {
                    expected.put(who, cells[3 + who.ordinal()]);
                }
                rows.add(new Row(cells[0], cells[1], cells[2], expected));
            }
        }
        return rows;
    }

    /** The routes the build serves, as the table keys them: a method and the path with every variable as {}. */
    private Set<String> served() {
        Set<String> out = new TreeSet<>();
        for (UriRouteInfo<?, ?> route : router.uriRoutes().toList()) {
            String template = route.getUriMatchTemplate().toString().replaceAll("\\{\\?[^}]*}", "")
                    .replaceAll("\\{[^}]+}", "{}");
            out.add(route.getHttpMethodName() + " " + template);
        }
        return out;
    }

    @Test
    // about 1,600 calls and a fresh fixture for every allowed write: minutes on 2 shared cores, so the module's
    // 120 s hang guard is too tight for it (a hang guard, not a speed goal)
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void everyRouteAnswersEveryKindOfCallerExactlyAsTheTableSays() throws IOException {
        List<Row> table = table();
        List<String> keys = new ArrayList<>(table.stream().map(Row::key).toList());
        table.stream().filter(Row::headToo).forEach(r -> keys.add("HEAD" + r.key().substring(3)));
        assertThat(keys).as("one row per served route, no more (HEAD: its GET's row)")
                .containsExactlyInAnyOrderElementsOf(served());
        MatrixFixture fixtures = new MatrixFixture(http, ownerToken(), this::token);
        MatrixFixture.Fixture shared = fixtures.create();
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Row row : table) {
            for (Who who : Who.values()) {
                String expected = row.expected().get(who);
                boolean allowed = !expected.matches("40[134]");
                MatrixFixture.Fixture f = allowed && !row.method().equals("GET") ? fixtures.create() : shared;
                String problem = check(row, expected, f, f.tokens().get(who));
                checked++;
                if (problem == null && row.headToo() && !expected.equals("stream")) {
                    problem = head(row, expected, f, f.tokens().get(who));
                    checked++;
                }
                if (problem != null) {
                    failures.add(row.method() + " " + row.path() + " as " + who + ": expected " + expected + ", "
                            + problem);
                }
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(table.size() * Who.values().length);
        assertThat(failures).as("checked %d calls", checked).isEmpty();
    }

    /** HEAD of a GET route: the GET row's status, without a body. */
    private String head(Row row, String expected, MatrixFixture.Fixture f, String token) {
        Http.Response r = http.send("HEAD", fill(row.path(), f.ids()), token, null, null);
        int status = Integer.parseInt(expected.split(":", 2)[0]);
        return r.status() == status && r.raw().isEmpty() ? null : "HEAD got " + r.status() + " " + clip(r.raw());
    }

    /** Null when the answer is what the cell says; else what it was. */
    private String check(Row row, String expected, MatrixFixture.Fixture f, String token) {
        String path = fill(row.path(), f.ids());
        if (expected.equals("stream")) {
            int status = http.streamStatus(path, token);
            return status == 200 ? null : "got " + status;
        }
        String body = row.body().isEmpty() ? null : fill(row.body(), f.ids());
        String type = "application/json";
        for (Map.Entry<String, String> typed : BODY_TYPES.entrySet()) {
            if (body != null && body.startsWith(typed.getKey())) {
                type = typed.getValue();
                body = body.substring(typed.getKey().length());
            }
        }
        Http.Response r = http.send(row.method(), path, token, type, body);
        String[] cell = expected.split(":", 3);
        if (r.status() != Integer.parseInt(cell[0])) {
            return "got " + r.status() + " " + clip(r.raw());
        }
        if (cell.length > 1 && cell[1].equals("jsonrpc")) { // the MCP endpoint ran and answered in JSON-RPC
            return r.body().path("jsonrpc").asText().equals("2.0") && r.body().has("error") ? null
                    : "not a JSON-RPC error: " + clip(r.raw());
        }
        String code = cell.length > 1 ? cell[1] : switch (r.status()) {
            case 401 -> "unauthenticated";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            default -> null;
        };
        if (code == null) {
            return null;
        }
        try {
            assertThat(problem(r, r.status())).isEqualTo(code);
        } catch (AssertionError e) {
            return "not a `" + code + "` problem: " + clip(r.raw());
        }
        String named = cell.length < 3 ? "" : cell[2].startsWith("=") ? cell[2].substring(1) : f.ids().get(cell[2]);
        assertThat(named).as("the fixture has no `%s`", expected).isNotNull();
        return r.body().path("detail").asText().contains(named) ? null
                : "the detail does not hold `" + named + "`: " + clip(r.raw());
    }

    private static String fill(String template, Map<String, String> ids) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = switch (name) {
                case "name" -> "n-" + UUID.randomUUID().toString().substring(0, 8);
                case "cname" -> "c" + UUID.randomUUID().toString().substring(0, 8);
                default -> ids.get(name);
            };
            assertThat(value).as("the fixture has no `%s` (%s)", name, template).isNotNull();
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String clip(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }
}

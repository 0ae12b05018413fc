package dev.stockade.api.kernel.access;

import static dev.stockade.api.kernel.access.Relation.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.http.HttpMethod;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteInfo;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The authorization matrix, generated from the router: every route the build serves is called by every kind of
 * identity, and the status must be what the table in {@link Action} says: allowed (anything but 401 and 403),
 * 401 without a usable token, 403 within the caller's organization, 404 across organizations. The relations each
 * identity holds are written out here, independently of {@link Authorizer}.
 */
@MicronautTest(transactional = false)
class AuthorizationMatrixTest extends OidcPlatformTest {
    @Inject
    Router router;

    /** The kinds of caller, and the relations each holds to the fixture's organization and project. */
    enum Who {
        ANONYMOUS(Set.of(), Set.of(), Set.of()),
        OWNER(Set.of(AUTHENTICATED, INSTALLATION_OWNER), Set.of(AUTHENTICATED, INSTALLATION_OWNER, ORG_ADMIN, ORG_MEMBER),
                Set.of(PROJECT_ADMIN, PROJECT_MEMBER)),
        ORG_ADMIN_USER(Set.of(AUTHENTICATED, USER), Set.of(AUTHENTICATED, USER, ORG_ADMIN, ORG_MEMBER),
                Set.of(PROJECT_ADMIN, PROJECT_MEMBER)),
        ORG_MEMBER_USER(Set.of(AUTHENTICATED, USER), Set.of(AUTHENTICATED, USER, ORG_MEMBER), Set.of()),
        STRANGER_USER(Set.of(AUTHENTICATED, USER), Set.of(AUTHENTICATED, USER), Set.of()),
        PROJECT_ADMIN_TOKEN(Set.of(AUTHENTICATED, ORG_API_TOKEN), Set.of(AUTHENTICATED, ORG_API_TOKEN),
                Set.of(PROJECT_ADMIN, PROJECT_MEMBER)),
        PLAIN_TOKEN(Set.of(AUTHENTICATED, ORG_API_TOKEN), Set.of(AUTHENTICATED, ORG_API_TOKEN), Set.of()),
        FOREIGN_TOKEN(Set.of(AUTHENTICATED, ORG_API_TOKEN), Set.of(AUTHENTICATED), Set.of()),
        SANDBOX(Set.of(AUTHENTICATED, SANDBOX_IDENTITY), Set.of(AUTHENTICATED, SANDBOX_IDENTITY, ORG_SANDBOX),
                Set.of(PROJECT_SANDBOX)),
        CLUSTER(Set.of(), Set.of(), Set.of()),
        PROXY(Set.of(EGRESS_PROXY), Set.of(), Set.of());

        final Set<Relation> unscoped;
        final Set<Relation> org;
        final Set<Relation> projectExtra;

        Who(Set<Relation> unscoped, Set<Relation> org, Set<Relation> projectExtra) {
            this.unscoped = unscoped;
            this.org = org;
            this.projectExtra = projectExtra;
        }

        Set<Relation> held(Scope scope) {
            if (scope == Scope.NONE) {
                return unscoped;
            }
            EnumSet<Relation> out = EnumSet.noneOf(Relation.class);
            out.addAll(org);
            if (scope == Scope.PROJECT || scope == Scope.SANDBOX_TOKEN || scope == Scope.CLUSTER
                    || scope == Scope.CONNECTOR) {
                out.addAll(projectExtra);
            }
            return out;
        }
    }

    /** One organization with everything a path can name, and a token for every kind of caller. */
    record Fixture(Map<String, String> vars, Map<Who, String> tokens) {
    }

    private String adminUserId;
    private String proxyToken;
    private String memberUserId;

    private String userToken(String subject) {
        return token(subject, Map.of("email", subject + "@example.com", "email_verified", true));
    }

    private Fixture fixture() {
        String owner = ownerToken();
        String org = createOrg(owner, "org-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        if (adminUserId == null) {
            adminUserId = http.get("/v1/auth/me", userToken("admin")).text("id");
            memberUserId = http.get("/v1/auth/me", userToken("member")).text("id");
            http.get("/v1/auth/me", userToken("stranger"));
        }
        http.put("/v1/orgs/" + org + "/members/" + adminUserId, owner, Map.of("role", "ADMIN"));
        http.put("/v1/orgs/" + org + "/members/" + memberUserId, owner, Map.of("role", "MEMBER"));
        Http.Response projAdmin = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "pa"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + projAdmin.text("id"), owner, Map.of("role", "ADMIN"));
        Http.Response plain = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "plain"));
        Http.Response target = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "target"));
        String foreignOrg = createOrg(owner, "foreign-" + UUID.randomUUID());
        String foreign = createApiToken(owner, foreignOrg, "foreign");
        Http.Response sandbox = http.post("/v1/projects/" + project + "/sandbox-tokens", owner, Map.of("name", "sbx"));
        Http.Response cluster = http.post("/v1/auth/cluster-token", sandbox.text("token"), null);
        assertThat(cluster.status()).as(cluster.raw()).isEqualTo(200);
        Map<Who, String> tokens = new java.util.EnumMap<>(Who.class);
        tokens.put(Who.OWNER, owner);
        tokens.put(Who.ORG_ADMIN_USER, userToken("admin"));
        tokens.put(Who.ORG_MEMBER_USER, userToken("member"));
        tokens.put(Who.STRANGER_USER, userToken("stranger"));
        tokens.put(Who.PROJECT_ADMIN_TOKEN, projAdmin.text("token"));
        tokens.put(Who.PLAIN_TOKEN, plain.text("token"));
        tokens.put(Who.FOREIGN_TOKEN, foreign);
        tokens.put(Who.SANDBOX, sandbox.text("token"));
        tokens.put(Who.CLUSTER, cluster.text("token"));
        if (proxyToken == null) {
            proxyToken = http.post("/v1/proxy-tokens", owner, Map.of("name", "matrix")).text("token");
        }
        tokens.put(Who.PROXY, proxyToken);
        Http.Response cl = http.post("/v1/projects/" + project + "/clusters", owner, Map.of("name", "c"));
        assertThat(cl.status()).as(cl.raw()).isEqualTo(201);
        Map<String, String> vars = Map.ofEntries(Map.entry("orgId", org), Map.entry("projectId", project),
                Map.entry("tokenId", target.text("id")), Map.entry("apiTokenId", plain.text("id")),
                Map.entry("userId", memberUserId),
                Map.entry("id", http.post("/v1/projects/" + project + "/sandbox-tokens", owner,
                        Map.of("name", "t")).text("id")),
                Map.entry("invitationId", UUID.randomUUID().toString()), Map.entry("slug", "not-found"),
                Map.entry("sessionId", UUID.randomUUID().toString()),
                Map.entry("policyId", UUID.randomUUID().toString()),
                // governance
                Map.entry("bindingId", UUID.randomUUID().toString()),
                Map.entry("credentialId", UUID.randomUUID().toString()),
                // sandboxes
                Map.entry("sandboxId", UUID.randomUUID().toString()), Map.entry("revision", "1"),
                // k8s slice
                Map.entry("clusterId", cl.text("id")), Map.entry("path", "api/v1/namespaces"),
                Map.entry("requestId", UUID.randomUUID().toString()),
                // connectors: one whose discovery failed (the dial guard refuses loopback here), and a spec id
                Map.entry("serverId", connector(owner, project)), Map.entry("specId", UUID.randomUUID().toString()),
                Map.entry("entryName", "tool"));
        return new Fixture(vars, tokens);
    }

    private String connector(String owner, String project) {
        Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "c", "url", "http://127.0.0.1:9/mcp"));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        return c.text("id");
    }

    @Test
    // about 2,000 calls and a fresh organization for every allowed write: ~100 s on 2 idle cores, so the module's
    // 120 s hang guard is too tight for it on a shared machine (a hang guard, not a speed goal)
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void everyRouteAnswersEveryKindOfCallerAsTheTableSays() {
        List<UriRouteInfo<?, ?>> routes = router.uriRoutes().toList();
        assertThat(routes).hasSizeGreaterThan(30);
        Fixture shared = fixture();
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (UriRouteInfo<?, ?> route : routes) {
            Action action = route.getAnnotationMetadata().enumValue(Access.class, Action.class).orElse(null);
            String template = route.getUriMatchTemplate().toString();
            assertThat(action).as("route %s %s declares no @Access", route.getHttpMethod(), template).isNotNull();
            for (Who who : Who.values()) {
                int expected = expected(action, who);
                boolean mutates = route.getHttpMethod() != HttpMethod.GET;
                Fixture f = mutates && expected == 200 ? fixture() : shared;
                String path = fill(template, f.vars);
                if (expected == 200 && route.getProduces().contains(io.micronaut.http.MediaType.TEXT_EVENT_STREAM_TYPE)) {
                    checked++; // a stream that does not end (the proxy feed, an MCP session's): its status is the check
                    int status = http.streamStatus(path, f.tokens.get(who));
                    if (status == 401 || status == 403) {
                        failures.add(route.getHttpMethod() + " " + template + " as " + who + ": not allowed");
                    }
                    continue;
                }
                Http.Response r = http.send(route.getHttpMethodName(), path, f.tokens.get(who),
                        "application/json", mutates ? "{}" : null);
                checked++;
                boolean ok = expected == 200 ? r.status() != 401 && r.status() != 403 : r.status() == expected;
                if (!ok) {
                    failures.add(route.getHttpMethod() + " " + template + " as " + who + ": expected "
                            + (expected == 200 ? "allowed" : expected) + ", got " + r.status() + " " + r.raw());
                } else if (expected != 200 && !route.getHttpMethodName().equals("HEAD")) {
                    try {
                        problem(r, expected);
                    } catch (AssertionError e) {
                        failures.add(route.getHttpMethod() + " " + template + " as " + who + ": not a problem body: "
                                + r.raw());
                    }
                }
            }
        }
        assertThat(failures).as("checked %d calls", checked).isEmpty();
    }

    private static int expected(Action action, Who who) {
        if (action.isPublic()) {
            return 200;
        }
        if (action.tunnelTokenOnly()) {
            return 401; // the relay's tunnel: only the cluster's tunnel token, which no caller here holds
        }
        if (action.clusterTokenOnly()) {
            return who == Who.CLUSTER ? 200 : 401; // the cluster proxy: every other token gets 401 (spec)
        }
        if (who == Who.ANONYMOUS || who == Who.CLUSTER) {
            return 401;
        }
        Set<Relation> held = who.held(action.scope());
        if (held.stream().anyMatch(action.allowed()::contains)) {
            return 200;
        }
        if (action.scope() == Scope.NONE) {
            return 403;
        }
        EnumSet<Relation> linking = EnumSet.copyOf(held.isEmpty() ? EnumSet.of(AUTHENTICATED) : held);
        linking.removeAll(EnumSet.of(AUTHENTICATED, USER, SANDBOX_IDENTITY, ORG_CREATOR));
        return linking.isEmpty() ? 404 : 403;
    }

    private static String fill(String template, Map<String, String> vars) {
        Matcher m = Pattern.compile("\\{([^}/?]+)}").matcher(template.replaceAll("\\{\\?[^}]*}", ""));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1).replaceAll("[:*+].*", "");
            String value = vars.get(name);
            assertThat(value).as("the matrix has no fixture for path variable `%s` (%s)", name, template).isNotNull();
            m.appendReplacement(out, value);
        }
        m.appendTail(out);
        return out.toString();
    }
}

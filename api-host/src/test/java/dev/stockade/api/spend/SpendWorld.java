package dev.stockade.api.spend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.sandbox.Sandbox;
import dev.stockade.api.sandbox.SandboxService;
import dev.stockade.api.support.Http;
import dev.stockade.policy.model.Provider;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Builds what spend tests need through the real platform: organizations, projects and sandboxes by REST, usage by
 * the ledger's own write API, and a sandbox's token as the platform hands it to the sandbox.
 */
final class SpendWorld {
    /** The sandbox properties every spend test class runs with (the resource ceiling a sandbox is created under). */
    static final Map<String, String> PROPERTIES = Map.of("sandbox.k8s.cpu", "2", "sandbox.k8s.memory", "4Gi");

    private final Http http;
    private final String owner;
    private final UsageLedger ledger;

    SpendWorld(Http http, String owner, UsageLedger ledger) {
        this.http = http;
        this.owner = owner;
        this.ledger = ledger;
    }

    String org() {
        Http.Response r = http.post("/v1/orgs", owner, Map.of("name", "spend-" + UUID.randomUUID()));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.text("id");
    }

    String project(String org, String name) {
        Http.Response r = http.post("/v1/orgs/" + org + "/projects", owner, Map.of("name", name));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.text("id");
    }

    String sandbox(String project, String name) {
        Http.Response r = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", name, "cpu", "1",
                "memory", "256Mi"));
        assertThat(r.status()).as(r.raw()).isEqualTo(201);
        return r.text("id");
    }

    /** The token the platform minted for the sandbox, as the sandbox receives it. */
    static String sandboxToken(SandboxService sandboxes, SecretBox box, String project, String sandboxId) {
        Sandbox s = sandboxes.get(new Grant(null, UUID.fromString(project), Set.of()), UUID.fromString(sandboxId));
        return box.open(s.tokenSealed(), "sandbox-token:" + s.id());
    }

    /** Records one metered, priced call of {@code usd} at {@code at} (null: now). */
    long spend(String org, String project, String sandbox, String usd, Instant at) {
        return ledger.record(usage(org, project, sandbox, Provider.BEDROCK, micros(usd), true, at));
    }

    static UsageLedger.Usage usage(String org, String project, String sandbox, Provider provider, Long costMicros,
                                   boolean metered, Instant at) {
        return new UsageLedger.Usage(UUID.fromString(org), UUID.fromString(project),
                sandbox == null ? null : UUID.fromString(sandbox), provider, "claude-sonnet", 1000, 200, costMicros,
                metered, at);
    }

    static long micros(String usd) {
        return new BigDecimal(usd).movePointRight(6).longValueExact();
    }

    /** PUTs a limit at {@code path} (below the org's spending-limits) and returns the answer. */
    Http.Response limit(String org, String path, String usd, String period, String token) {
        Map<String, Object> body = period == null ? Map.of("amountUsd", usd) : Map.of("amountUsd", usd, "period",
                period);
        return http.put("/v1/orgs/" + org + "/spending-limits" + path, token, body);
    }
}

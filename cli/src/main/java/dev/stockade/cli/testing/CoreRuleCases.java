package dev.stockade.cli.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.cli.testing.CaseResult.CaseContext;
import dev.stockade.policy.compiler.ConnectorReach.GrantedConnector;
import dev.stockade.policy.compiler.HeldSpend;
import dev.stockade.policy.compiler.ReservationFit;
import dev.stockade.policy.compiler.ReservationRequest;
import dev.stockade.policy.compiler.SpendDecision;
import dev.stockade.policy.compiler.SpendLimit;
import dev.stockade.policy.compiler.SpendPeriod;
import dev.stockade.policy.compiler.SpendScope;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The cases of the core rules that are not a resolution of one set of policies (the runner's extensions of FORMAT.md,
 * docs/policy-tests.md): spend admission ({@code spend}), the reservation fit ({@code reservation}) and connector
 * grants across projects ({@code connectorReach}).
 */
final class CoreRuleCases {
    private CoreRuleCases() {
    }

    /** The id an organization label of a test file stands for: stable, so that expectations can name it back. */
    static UUID org(String label) {
        return UUID.nameUUIDFromBytes(("org:" + label).getBytes(StandardCharsets.UTF_8));
    }

    /** A {@code spend} case: the limits in, the core's admission out. */
    static CaseResult spend(CaseContext ctx, JsonNode node, String pointer) {
        List<SpendLimit> limits = new ArrayList<>();
        JsonNode given = node.path("limits");
        for (int i = 0; i < given.size(); i++) {
            limits.add(limit(given.get(i), pointer + "/limits/" + i));
        }
        SpendDecision d = SpendDecision.judge(limits);
        JsonNode expect = node.get("expect");
        List<String> mismatches = new ArrayList<>();
        if (expect.path("allowed").asBoolean() != d.allowed()) {
            mismatches.add("allowed " + expect.path("allowed").asBoolean() + " but got " + d.allowed());
        }
        if (expect.has("reason") && !expect.get("reason").asText().equals(d.reason().code())) {
            mismatches.add("reason " + expect.get("reason").asText() + " but got " + d.reason().code());
        }
        if (expect.has("reached")) {
            List<String> want = texts(expect.get("reached"));
            List<String> got = d.reached().stream().map(l -> l.scope().wire()).toList();
            if (!want.equals(got)) {
                mismatches.add("reached " + want + " but got " + got);
            }
        }
        return mismatches.isEmpty() ? CaseResult.passed(ctx)
                : CaseResult.failed(ctx, "spend admission", String.join("; ", mismatches));
    }

    /** A {@code reservation} case: the call's cost and the limits with their holds in, the core's fit out. */
    static CaseResult reservation(CaseContext ctx, JsonNode node, String pointer) {
        List<HeldSpend> limits = new ArrayList<>();
        JsonNode given = node.path("limits");
        for (int i = 0; i < given.size(); i++) {
            String at = pointer + "/limits/" + i;
            try {
                limits.add(new HeldSpend(limit(given.get(i), at), amount(given.get(i), "heldUsd", at)));
            } catch (IllegalArgumentException e) {
                throw new FormatProblem(at, e.getMessage()); // a negative amount or spend: the core's own message
            }
        }
        ReservationFit fit = ReservationFit.judge(new ReservationRequest(amount(node, "costUsd", pointer), limits));
        JsonNode expect = node.get("expect");
        List<String> mismatches = new ArrayList<>();
        if (expect.path("fits").asBoolean() != fit.fits()) {
            mismatches.add("fits " + expect.path("fits").asBoolean() + " but got " + fit.fits());
        }
        if (expect.has("reason") && !expect.get("reason").asText().equals(fit.reason().code())) {
            mismatches.add("reason " + expect.get("reason").asText() + " but got " + fit.reason().code());
        }
        if (expect.has("refused")) {
            List<String> want = new ArrayList<>();
            JsonNode rows = expect.get("refused");
            for (int i = 0; i < rows.size(); i++) {
                String at = pointer + "/expect/refused/" + i;
                want.add(rows.get(i).path("scope").asText() + " over " + usd(amount(rows.get(i), "overUsd", at)));
            }
            List<String> got = fit.refused().stream()
                    .map(s -> s.limit().limit().scope().wire() + " over " + usd(s.overMicros())).toList();
            if (!want.equals(got)) {
                mismatches.add("refused " + want + " but got " + got);
            }
        }
        return mismatches.isEmpty() ? CaseResult.passed(ctx)
                : CaseResult.failed(ctx, "reservation fit", String.join("; ", mismatches));
    }

    /** A {@code connectorReach} case: what the core granted, compared in order with the expected rows. */
    static CaseResult reach(CaseContext ctx, JsonNode expect, List<GrantedConnector> granted, List<String> labels) {
        Map<UUID, String> names = labels.stream().distinct().collect(Collectors.toMap(CoreRuleCases::org,
                Function.identity()));
        List<String> want = new ArrayList<>();
        expect.forEach(row -> want.add(row(row.path("org").asText(), row.path("connectorId").asText(),
                texts(row.path("tools")), row.hasNonNull("credentialId") ? row.get("credentialId").asText() : null)));
        List<String> got = granted.stream().map(g -> row(names.getOrDefault(g.orgId(), g.orgId().toString()),
                g.connectorId().toString(), g.tools(), g.credentialId().map(UUID::toString).orElse(null))).toList();
        return want.equals(got) ? CaseResult.passed(ctx)
                : CaseResult.failed(ctx, "connector reach " + want, String.valueOf(got));
    }

    private static String row(String org, String connector, List<String> tools, String credential) {
        return org + " " + connector.toLowerCase() + " " + tools + (credential == null ? "" : " " + credential.toLowerCase());
    }

    private static SpendLimit limit(JsonNode n, String pointer) {
        SpendScope scope = SpendScope.of(n.path("scope").asText())
                .orElseThrow(() -> new FormatProblem(pointer + "/scope", "scope must be org, project or sandbox"));
        SpendPeriod period = SpendPeriod.of(n.path("period").asText("month"))
                .orElseThrow(() -> new FormatProblem(pointer + "/period", "period must be day or month"));
        // the judgement does not depend on when the period began
        return new SpendLimit(scope, period, micros(n, "limitUsd", pointer), micros(n, "spentUsd", pointer),
                period.start(Instant.EPOCH));
    }

    private static long micros(JsonNode n, String key, String pointer) {
        try {
            return new BigDecimal(n.path(key).asText()).movePointRight(6).longValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            throw new FormatProblem(pointer + "/" + key, key + " must be a decimal string of USD with at most six"
                    + " decimals");
        }
    }

    /** An amount that cannot be negative (a cost, a hold, an excess); absent is zero. */
    private static long amount(JsonNode n, String key, String pointer) {
        long micros = n.has(key) ? micros(n, key, pointer) : 0;
        if (micros < 0) {
            throw new FormatProblem(pointer + "/" + key, key + " must not be negative");
        }
        return micros;
    }

    private static String usd(long micros) {
        return BigDecimal.valueOf(micros, 6).toPlainString();
    }

    private static List<String> texts(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(t -> out.add(t.asText()));
        return out;
    }
}

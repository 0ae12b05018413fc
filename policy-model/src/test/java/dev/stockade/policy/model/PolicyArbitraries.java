package dev.stockade.policy.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of VALID policies (every semantic rule respected, no warnings), meant to be copied or
 * reused by other modules' property tests. Absent components (null) and present-but-empty lists are
 * both generated where the spec allows them.
 */
public final class PolicyArbitraries {
    private PolicyArbitraries() {
    }

    static Arbitrary<String> word() {
        return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8);
    }

    static Arbitrary<String> freeText() {
        return Arbitraries.strings().withChars("abc XYZ-_:#'\"\\é/*{}\n").ofMaxLength(20);
    }

    /** Valid domain patterns: literal hosts, {@code *.}-prefixed, in-label wildcards, IDN labels. */
    public static Arbitrary<String> domainPattern() {
        Arbitrary<String> label = Arbitraries.oneOf(word(), word().map(w -> w + "-*"), Arbitraries.of("bücher"));
        Arbitrary<String> host = label.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join(".", l) + ".com");
        return Arbitraries.oneOf(host, host.map(h -> "*." + h), Arbitraries.just("*"));
    }

    static Arbitrary<String> pathGlob() {
        Arbitrary<String> seg = Arbitraries.oneOf(word(), Arbitraries.of("*", "**", "v*"));
        return seg.list().ofMaxSize(4).map(l -> "/" + String.join("/", l));
    }

    static Arbitrary<String> graphqlName() {
        return Arbitraries.strings().withCharRange('a', 'z').withChars('_').ofMinLength(1).ofMaxLength(8)
                .filter(s -> !s.isEmpty());
    }

    static Arbitrary<GraphqlFence> graphql() {
        Arbitrary<List<String>> fields = graphqlName().list().ofMinSize(1).ofMaxSize(3).uniqueElements();
        Arbitrary<String> opName = Arbitraries.oneOf(graphqlName(), graphqlName().map(n -> n + "*")).injectNull(0.5);
        Arbitrary<OperationType> type = Arbitraries.of(OperationType.class);
        Arbitrary<List<String>> maybeFields = fields.injectNull(0.4);
        return Combinators.combine(type, opName, maybeFields, Arbitraries.integers().between(0, 2),
                        graphqlName(), freeText().filter(t -> !t.contains("\\")))
                .as((t, n, f, argCount, key, glob) -> {
                    List<ArgumentCondition> args = null;
                    if (f != null && argCount > 0) {
                        args = new ArrayList<>();
                        for (int i = 0; i < argCount; i++) {
                            args.add(new ArgumentCondition(f.get(i % f.size()), "/" + key + "/a~1b~0", glob));
                        }
                    }
                    return new GraphqlFence(t, n, f, args);
                });
    }

    static Arbitrary<Rule> rule() {
        Arbitrary<String> method = Arbitraries.of("GET", "POST", "PUT", "DELETE", "PATCH").injectNull(0.4);
        Arbitrary<String> path = pathGlob().injectNull(0.4);
        return Combinators.combine(method, path, graphql().injectNull(0.6))
                .as((m, p, g) -> m == null && p == null && g == null ? new Rule("GET", null, null) : new Rule(m, p, g));
    }

    static Arbitrary<List<String>> binaries() {
        return word().map(w -> "/usr/bin/" + w).list().ofMinSize(1).ofMaxSize(3);
    }

    public static Arbitrary<DomainEntry> domainEntry() {
        Arbitrary<DomainEntry> allow = Combinators.combine(domainPattern(),
                        Arbitraries.of(Transport.class).injectNull(0.3),
                        Arbitraries.of("https", "http", "wss").injectNull(0.5),
                        freeText().injectNull(0.7),
                        rule().list().ofMinSize(1).ofMaxSize(3).injectNull(0.5),
                        binaries().injectNull(0.6))
                .as((p, t, s, d, r, b) -> new DomainEntry(p, Verdict.ALLOW, t, s, d, r, b));
        Arbitrary<DomainEntry> deny = Combinators.combine(domainPattern(), freeText().injectNull(0.7))
                .as((p, d) -> new DomainEntry(p, Verdict.DENY, null, null, d, null, null));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, allow), net.jqwik.api.Tuple.of(1, deny));
    }

    static Arbitrary<String> envName() {
        return Arbitraries.strings().withCharRange('A', 'Z').withChars('_').ofMinLength(1).ofMaxLength(10);
    }

    static Arbitrary<Map<String, String>> env() {
        return Arbitraries.maps(envName(), freeText()).ofMaxSize(3).map(LinkedHashMap::new);
    }

    static Arbitrary<String> uuid() {
        return Arbitraries.randomValue(r -> new UUID(r.nextLong(), r.nextLong()).toString());
    }

    static Arbitrary<ConnectorGrant> connector() {
        return Combinators.combine(uuid(), graphqlName().list().ofMaxSize(3).uniqueElements(), uuid().injectNull(0.5))
                .as(ConnectorGrant::new);
    }

    static Arbitrary<ManagedInference> managedInference() {
        return Combinators.combine(Arbitraries.of(true, false).injectNull(0.3),
                        Arbitraries.of(Provider.class).injectNull(0.3),
                        Arbitraries.of(Provider.class).list().ofMaxSize(3).uniqueElements().injectNull(0.5),
                        env().injectNull(0.5))
                .as((enabled, provider, others, env) -> {
                    List<Provider> providers = null;
                    if (others != null) {
                        Provider primary = provider == null ? Provider.BEDROCK : provider;
                        providers = new ArrayList<>(others);
                        if (!providers.contains(primary)) {
                            providers.add(0, primary);
                        }
                    }
                    return new ManagedInference(enabled, provider, providers, env);
                });
    }

    static Arbitrary<PiiMasking> piiMasking() {
        return Combinators.combine(Arbitraries.of(MaskingType.class).list().ofMaxSize(4).uniqueElements().injectNull(0.3),
                Arbitraries.of(true, false).injectNull(0.4), Arbitraries.of(true, false).injectNull(0.4))
                .as(PiiMasking::new);
    }

    /** Valid policies. */
    public static Arbitrary<Policy> policy() {
        Arbitrary<Policy> head = Combinators.combine(word(), freeText().injectNull(0.5),
                        Arbitraries.of(Verdict.class).injectNull(0.3), Arbitraries.of(Transport.class).injectNull(0.5),
                        domainEntry().list().ofMaxSize(4).injectNull(0.2))
                .as((n, d, v, t, domains) -> new Policy(n, d, v, t, domains, null, null, null, null, null, null));
        Arbitrary<List<CredentialBinding>> credentials = Combinators.combine(word(), envName())
                .as(CredentialBinding::new).list().ofMaxSize(2).injectNull(0.5);
        Arbitrary<List<Integration>> integrations = Combinators.combine(Arbitraries.of(IntegrationType.class), word())
                .as(Integration::new).list().ofMaxSize(2).injectNull(0.5);
        return Combinators.combine(head, credentials, connector().list().ofMaxSize(2).injectNull(0.5), integrations,
                        managedInference().injectNull(0.5), piiMasking().injectNull(0.5), env().injectNull(0.5))
                .as((h, c, k, i, m, pii, env) -> new Policy(h.name(), h.description(), h.networkDefaultVerdict(),
                        h.networkDefaultTransport(), h.allowedDomains(), c, k, i, m, pii, env));
    }
}

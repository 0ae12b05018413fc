package dev.stockade.policy.model;

import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators of VALID policies (every semantic rule respected, no warnings), and the few
 * combinators the project's property tests share. Absent components (null) and present-but-empty lists
 * are both generated where the spec allows them.
 */
public final class PolicyGens {
    private PolicyGens() {
    }

    /** {@code gen}, or null with the given percentage. */
    public static <T> Gen<T> nullable(Gen<T> gen, int percentNull) {
        return gen.toOptionals(percentNull).map(o -> o.orElse(null));
    }

    /** Strings of up to {@code max} characters drawn from {@code alphabet}. */
    public static Gen<String> chars(String alphabet, int min, int max) {
        List<Character> pool = alphabet.chars().mapToObj(c -> (char) c).toList();
        return lists().of(arbitrary().pick(pool)).ofSizeBetween(min, max).map(PolicyGens::join);
    }

    /** Lists of {@code min..max} elements of {@code gen}, duplicates removed (so possibly shorter). */
    public static <T> Gen<List<T>> distinct(Gen<T> gen, int min, int max) {
        return lists().of(gen).ofSizeBetween(min, max).map(l -> new ArrayList<>(new LinkedHashSet<>(l)));
    }

    private static String join(List<Character> cs) {
        StringBuilder b = new StringBuilder(cs.size());
        cs.forEach(b::append);
        return b.toString();
    }

    static Gen<String> word() {
        return chars("abcdefghijklmnopqrstuvwxyz", 1, 8);
    }

    static Gen<String> freeText() {
        return chars("abc XYZ-_:#'\"\\é/*{}\n", 0, 20);
    }

    /** Valid domain patterns: literal hosts, {@code *.}-prefixed, in-label wildcards, IDN labels. */
    public static Gen<String> domainPattern() {
        Gen<String> label = Generate.oneOf(word(), word().map(w -> w + "-*"), Generate.constant("bücher"));
        Gen<String> host = lists().of(label).ofSizeBetween(1, 3).map(l -> String.join(".", l) + ".com");
        return Generate.oneOf(host, host.map(h -> "*." + h), Generate.constant("*"));
    }

    static Gen<String> pathGlob() {
        Gen<String> seg = Generate.oneOf(word(), arbitrary().pick("*", "**", "v*"));
        return lists().of(seg).ofSizeBetween(0, 4).map(l -> "/" + String.join("/", l));
    }

    static Gen<String> graphqlName() {
        return chars("abcdefghijklmnopqrstuvwxyz_", 1, 8);
    }

    static Gen<GraphqlFence> graphql() {
        Gen<List<String>> maybeFields = nullable(distinct(graphqlName(), 1, 3), 40);
        Gen<String> opName = nullable(Generate.oneOf(graphqlName(), graphqlName().map(n -> n + "*")), 50);
        Gen<Pair<String, String>> arg = graphqlName().zip(freeText().map(t -> t.replace("\\", "")), Pair::of);
        return arbitrary().enumValues(OperationType.class).zip(opName, maybeFields, integers().between(0, 2), arg,
                (t, n, f, argCount, keyAndGlob) -> {
                    List<ArgumentCondition> args = null;
                    if (f != null && argCount > 0) {
                        args = new ArrayList<>();
                        for (int i = 0; i < argCount; i++) {
                            args.add(new ArgumentCondition(f.get(i % f.size()), "/" + keyAndGlob._1 + "/a~1b~0",
                                    keyAndGlob._2));
                        }
                    }
                    return new GraphqlFence(t, n, f, args);
                });
    }

    static Gen<Rule> rule() {
        Gen<String> method = nullable(arbitrary().pick("GET", "POST", "PUT", "DELETE", "PATCH"), 40);
        return method.zip(nullable(pathGlob(), 40), nullable(graphql(), 60),
                (m, p, g) -> m == null && p == null && g == null ? new Rule("GET", null, null) : new Rule(m, p, g));
    }

    static Gen<List<String>> binaries() {
        return lists().of(word().map(w -> "/usr/bin/" + w)).ofSizeBetween(1, 3);
    }

    /** Valid domain entries, allow entries three times as often as deny entries. */
    public static Gen<DomainEntry> domainEntry() {
        Gen<Pair<String, List<String>>> descriptionAndBinaries =
                nullable(freeText(), 70).zip(nullable(binaries(), 60), Pair::of);
        Gen<DomainEntry> allow = domainPattern().zip(nullable(arbitrary().enumValues(Transport.class), 30),
                nullable(arbitrary().pick("https", "http", "wss"), 50),
                nullable(lists().of(rule()).ofSizeBetween(1, 3), 50), descriptionAndBinaries,
                (p, t, s, r, db) -> new DomainEntry(p, Verdict.ALLOW, t, s, db._1, r, db._2));
        Gen<DomainEntry> deny = domainPattern().zip(nullable(freeText(), 70),
                (p, d) -> new DomainEntry(p, Verdict.DENY, null, null, d, null, null));
        return Generate.frequency(Pair.of(3, allow), Pair.of(1, deny));
    }

    static Gen<String> envName() {
        return chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ_", 1, 10);
    }

    static Gen<Map<String, String>> env() {
        return lists().of(envName().zip(freeText(), Pair::of)).ofSizeBetween(0, 3).map(l -> {
            Map<String, String> m = new LinkedHashMap<>();
            l.forEach(p -> m.put(p._1, p._2));
            return m;
        });
    }

    static Gen<String> uuid() {
        return longs().all().zip(longs().all(), (a, b) -> new UUID(a, b).toString());
    }

    static Gen<ConnectorGrant> connector() {
        return uuid().zip(distinct(graphqlName(), 0, 3), nullable(uuid(), 50), ConnectorGrant::new);
    }

    static Gen<ManagedInference> managedInference() {
        Gen<Provider> provider = arbitrary().enumValues(Provider.class);
        return nullable(booleans().all(), 30).zip(nullable(provider, 30), nullable(distinct(provider, 0, 3), 50),
                nullable(env(), 50), (enabled, primaryOrNull, others, env) -> {
                    List<Provider> providers = null;
                    if (others != null) {
                        Provider primary = primaryOrNull == null ? Provider.BEDROCK : primaryOrNull;
                        providers = new ArrayList<>(others);
                        if (!providers.contains(primary)) {
                            providers.add(0, primary);
                        }
                    }
                    return new ManagedInference(enabled, primaryOrNull, providers, env);
                });
    }

    static Gen<PiiMasking> piiMasking() {
        return nullable(distinct(arbitrary().enumValues(MaskingType.class), 0, 4), 30).zip(
                nullable(booleans().all(), 40), nullable(booleans().all(), 40), PiiMasking::new);
    }

    /** Valid policies. */
    public static Gen<Policy> policy() {
        Gen<Policy> head = word().zip(nullable(freeText(), 50), nullable(arbitrary().enumValues(Verdict.class), 30),
                nullable(arbitrary().enumValues(Transport.class), 50),
                nullable(lists().of(domainEntry()).ofSizeBetween(0, 4), 20),
                (n, d, v, t, domains) -> new Policy(n, d, v, t, domains, null, null, null, null, null, null));
        Gen<List<CredentialBinding>> credentials =
                nullable(lists().of(word().zip(envName(), CredentialBinding::new)).ofSizeBetween(0, 2), 50);
        Gen<List<Integration>> integrations = nullable(lists().of(arbitrary().enumValues(IntegrationType.class)
                .zip(word(), Integration::new)).ofSizeBetween(0, 2), 50);
        Gen<Pair<List<CredentialBinding>, List<ConnectorGrant>>> grants = credentials.zip(
                nullable(lists().of(connector()).ofSizeBetween(0, 2), 50), Pair::of);
        Gen<Pair<ManagedInference, PiiMasking>> services = nullable(managedInference(), 50)
                .zip(nullable(piiMasking(), 50), Pair::of);
        return head.zip(grants, integrations, services, nullable(env(), 50),
                (h, g, i, s, env) -> new Policy(h.name(), h.description(), h.networkDefaultVerdict(),
                        h.networkDefaultTransport(), h.allowedDomains(), g._1, g._2, i, s._1, s._2, env));
    }
}

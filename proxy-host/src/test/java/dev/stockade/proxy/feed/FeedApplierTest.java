package dev.stockade.proxy.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.policy.compiler.Enforcement;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.SourceMap;
import dev.stockade.proxy.PolicySource;
import dev.stockade.proxy.SandboxRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The follower's shared programs: sandboxes listing the same documents share one compiled program, a change compiles
 * only the lists it reaches, a bad document fails closed for the sandboxes that list it, sets come into force in the
 * order sent, and the shared follower decides exactly as compiling each sandbox's set on its own would.
 */
class FeedApplierTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Allow-lists over a small pool of hosts, so random lists overlap, conflict and repeat. */
    private static final List<String> HOSTS = List.of("a.example.com", "b.example.com", "c.example.com",
            "d.example.com", "x.example.net");

    private final SandboxRegistry registry = SandboxRegistry.dynamic();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final FeedApplier applier = new FeedApplier(registry, names -> { }, warnings::add, 4);

    @Test
    void sandboxesListingTheSameDocumentsShareOneProgram() {
        applier.apply(set(applier, 1, "sb-1", List.of(allow("a.example.com"), allow("b.example.com"))));
        applier.apply(set(applier, 2, "sb-2", List.of(allow("a.example.com"), allow("b.example.com"))));
        applier.apply(set(applier, 3, "sb-3", List.of(allow("b.example.com"), allow("a.example.com"))));

        assertThat(enforcement("sb-1")).isSameAs(enforcement("sb-2"));
        assertThat(enforcement("sb-3")).as("another order is another list").isNotSameAs(enforcement("sb-1"));
        assertThat(applier.programs()).isEqualTo(2);
        assertThat(applier.compilations()).isEqualTo(2);
        assertThat(decide("sb-2", "b.example.com").allowed()).isTrue();
    }

    @Test
    void aChangeCompilesOnlyTheListsItReaches() {
        applier.apply(set(applier, 1, "sb-1", List.of(allow("a.example.com"))));
        applier.apply(set(applier, 2, "sb-2", List.of(allow("a.example.com"))));
        applier.apply(set(applier, 3, "sb-3", List.of(allow("c.example.com"))));
        Enforcement untouched = enforcement("sb-3");
        applier.settleCompiled();
        long before = applier.compilations();

        // the platform re-sends every set; only sb-1 and sb-2's list changed
        applier.apply(set(applier, 4, "sb-1", List.of(allow("b.example.com"))));
        applier.apply(set(applier, 5, "sb-2", List.of(allow("b.example.com"))));
        applier.apply(set(applier, 6, "sb-3", List.of(allow("c.example.com"))));
        applier.settleCompiled();

        assertThat(applier.compilations() - before).isEqualTo(1);
        assertThat(enforcement("sb-3")).isSameAs(untouched);
        assertThat(decide("sb-1", "b.example.com").allowed()).isTrue();
        assertThat(decide("sb-2", "a.example.com").allowed()).isFalse();
        assertThat(applier.programs()).as("the old shared list is forgotten").isEqualTo(2);
    }

    @Test
    void aDocumentThatDoesNotReadDeniesEverythingForTheSandboxesListingIt() throws IOException {
        JsonNode bad = JSON.readTree("{\"name\":\"bad\",\"allowedDomains\":[{\"pattern\":\"\"}]}");
        applier.apply(set(applier, 1, "sb-1", List.of(allow("a.example.com"), bad)));
        applier.apply(set(applier, 2, "sb-2", List.of(allow("a.example.com"))));

        assertThat(decide("sb-1", "a.example.com").reason()).isEqualTo(ReasonCode.POLICY_UNAVAILABLE);
        assertThat(decide("sb-2", "a.example.com").allowed()).isTrue();
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("sb-1").contains("denies everything"));
    }

    @Test
    void setsComeIntoForceInTheOrderSubmitted() {
        List<Long> inForce = new CopyOnWriteArrayList<>();
        for (int v = 1; v <= 60; v++) {
            // distinct lists compile concurrently and finish in any order
            applier.submit(set(applier, v, "sb-" + (v % 3), List.of(allow(HOSTS.get(v % HOSTS.size())), allow("v" + v
                    + ".example.org"))), s -> inForce.add(s.version()));
        }
        applier.settle();

        assertThat(inForce).hasSize(60).isSorted();
        assertThat(decide("sb-0", "v60.example.org").allowed()).isTrue();
        assertThat(decide("sb-0", "v57.example.org").allowed()).isFalse();
        assertThat(applier.programs()).as("only the three lists in force are kept").isEqualTo(3);
    }

    @Test
    void aHaltIsInForceAtOnceAlsoForSetsStillCompiling() {
        List<Set<String>> closed = new CopyOnWriteArrayList<>();
        FeedApplier halting = new FeedApplier(registry, closed::add, warnings::add, 2);
        halting.apply(set(halting, 1, "sb-1", List.of(allow("a.example.com"))));
        halting.submit(set(halting, 2, "sb-2", List.of(allow("a.example.com"), allow("b.example.com"))), s -> { });
        halting.halted(Set.of("org-1"));

        assertThat(decide("sb-1", "a.example.com").reason()).isEqualTo(ReasonCode.HALTED);
        assertThat(closed).hasSize(1);
        assertThat(closed.get(0)).contains("sb-1"); // sb-2 may still be compiling: nothing of it is open
        halting.settle();
        assertThat(decide("sb-2", "a.example.com").reason()).as("installed after the halt").isEqualTo(ReasonCode.HALTED);
        halting.halted(Set.of());
        assertThat(decide("sb-2", "b.example.com").allowed()).isTrue();
        assertThat(decide("sb-1", "a.example.com").allowed()).isTrue();
    }

    @Test
    void removingTheLastSandboxOfAListForgetsItsProgram() {
        applier.apply(set(applier, 1, "sb-1", List.of(allow("a.example.com"))));
        applier.apply(set(applier, 2, "sb-2", List.of(allow("a.example.com"))));
        applier.remove("sb-1");
        assertThat(applier.programs()).isEqualTo(1);
        applier.remove("sb-2");
        assertThat(applier.programs()).isZero();
        assertThat(registry.identify("Bearer " + token("sb-2"))).isEmpty();
    }

    /** A set listing {@code grants}, each document offered to the follower first, as the feed sends them. */
    static SandboxSet set(FeedApplier to, long version, String sandboxId, List<JsonNode> grants) {
        List<DocumentHash> hashes = grants.stream().map(d -> to.documents().offer(d.toString())).toList();
        return new SandboxSet(version, sandboxId, "org-1", "project-1", sha256(token(sandboxId)), hashes, List.of(),
                List.of());
    }

    static JsonNode allow(String host) {
        try {
            return JSON.readTree("{\"name\":\"p-" + host + "\",\"networkDefaultVerdict\":\"deny\",\"allowedDomains\":"
                    + "[{\"pattern\":\"" + host + "\",\"verdict\":\"allow\"}]}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode deny(String host) {
        try {
            return JSON.readTree("{\"name\":\"d-" + host + "\",\"allowedDomains\":[{\"pattern\":\"" + host
                    + "\",\"verdict\":\"deny\"}]}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The oracle: the sandbox's documents read and compiled on their own, nothing shared or cached. */
    static Enforcement compiledAlone(List<JsonNode> documents) {
        List<Policy> grants = new ArrayList<>();
        for (JsonNode doc : documents) {
            grants.add(PolicyReader.fromTree(doc, SourceMap.empty(), "platform", doc.toString()).policy());
        }
        return PolicySource.compile(grants, List.of());
    }

    Enforcement enforcement(String sandboxId) {
        return registry.identify("Bearer " + token(sandboxId)).orElseThrow().enforcement().get();
    }

    Decision decide(String sandboxId, String host) {
        return enforcement(sandboxId).program().decideConnection(EgressRequest.connection("https", host, 443, host,
                null));
    }

    static String token(String sandboxId) {
        return "stk_sbx_" + sandboxId;
    }

    static String tokenSha256(String sandboxId) {
        return sha256(token(sandboxId));
    }

    private static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

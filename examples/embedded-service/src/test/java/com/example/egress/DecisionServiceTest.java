package com.example.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the service over real HTTP and checks its decisions before and after the policy file changes. */
class DecisionServiceTest {
    private static final String GITHUB_READS = """
            name: github-reads
            networkDefaultVerdict: deny
            allowedDomains:
              - pattern: api.github.com
                verdict: allow
                transport: upstream
                binaries: [/usr/bin/gh]
                rules:
                  - {method: GET, path: "/repos/acme/**"}
            """;
    private static final String MIRROR_ONLY = """
            name: mirror-only
            networkDefaultVerdict: deny
            allowedDomains:
              - pattern: "*.pypi.org"
                verdict: allow
                transport: upstream
            """;

    @TempDir
    Path dir;
    private Path policy;
    private final BlockingQueue<ProgramSwap> swaps = new LinkedBlockingQueue<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private DecisionService service;

    @BeforeEach
    void start() throws IOException, InterruptedException {
        policy = dir.resolve("agent.yaml");
        Files.writeString(policy, GITHUB_READS);
        service = DecisionService.start(policy, new InetSocketAddress("127.0.0.1", 0), swaps::add);
        ProgramSwap first = nextSwap();
        assertEquals(1, first.generation());
        assertEquals("github-reads", first.policy(), first.problems());
    }

    @AfterEach
    void stop() {
        service.close();
    }

    @Test
    void decidesByThePolicyFileAndFollowsItWhenItChanges() throws Exception {
        assertEquals("allow rule-allow policy=github-reads entry=0 rule=0",
                decide("https://api.github.com/repos/acme/app/pulls", "GET", "/usr/bin/gh"));
        assertEquals("deny caller-not-listed", firstTwoWords(
                decide("https://api.github.com/repos/acme/app/pulls", "GET", "/usr/bin/curl")));
        assertEquals("deny no-rule-matched", firstTwoWords(
                decide("https://api.github.com/repos/acme/app/pulls", "DELETE", "/usr/bin/gh")));
        assertEquals("deny default-deny", firstTwoWords(decide("https://files.pypi.org/simple/", "GET", null)));

        replacePolicy(MIRROR_ONLY);
        assertTrue(swapTo("mirror-only").generation() > 1);

        assertEquals("allow entry-allow", firstTwoWords(decide("https://files.pypi.org/simple/", "GET", null)));
        assertEquals("deny default-deny", firstTwoWords(
                decide("https://api.github.com/repos/acme/app/pulls", "GET", "/usr/bin/gh")));
    }

    @Test
    void aBrokenPolicyDeniesEverythingUntilItIsFixed() throws Exception {
        replacePolicy("name: broken\nnetworkDefaultVerdict: maybe\n");
        ProgramSwap broken = swapTo("");
        assertTrue(broken.problems().contains("agent.yaml:2:"), broken.problems());
        assertEquals("deny policy-unavailable", firstTwoWords(
                decide("https://api.github.com/repos/acme/app/pulls", "GET", "/usr/bin/gh")));

        replacePolicy(GITHUB_READS);
        swapTo("github-reads");
        assertEquals("allow rule-allow", firstTwoWords(
                decide("https://api.github.com/repos/acme/app/pulls", "GET", "/usr/bin/gh")));
    }

    /**
     * Request threads decide while the file is swapped back and forth: every answer is one of the two policies'
     * answers, never an error or a mix, because each decision reads the program reference once.
     */
    @Test
    void decisionsDuringSwapsComeFromOneProgramOrTheOther() throws Exception {
        String url = "https://api.github.com/repos/acme/app/pulls";
        Set<String> expected = Set.of("allow rule-allow policy=github-reads entry=0 rule=0",
                "deny default-deny policy=null entry=-1 rule=-1");
        AtomicBoolean swapping = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Set<String>>> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(pool.submit(() -> {
                Set<String> seen = new HashSet<>();
                // bounded: stops when the swaps are done, or after 2,000 requests
                for (int n = 0; n < 2_000 && swapping.get(); n++) {
                    seen.add(decide(url, "GET", "/usr/bin/gh"));
                }
                return seen;
            }));
        }
        try {
            for (int round = 0; round < 4; round++) {
                replacePolicy(MIRROR_ONLY);
                swapTo("mirror-only");
                replacePolicy(GITHUB_READS);
                swapTo("github-reads");
            }
        } finally {
            swapping.set(false);
            pool.shutdown();
        }
        for (Future<Set<String>> worker : workers) {
            Set<String> seen = worker.get(30, TimeUnit.SECONDS);
            assertTrue(expected.containsAll(seen), () -> "unexpected answers " + seen);
        }
        assertEquals("allow rule-allow policy=github-reads entry=0 rule=0", decide(url, "GET", "/usr/bin/gh"));
    }

    @Test
    void badInputGetsAClearRefusal() throws Exception {
        HttpResponse<String> missing = get("/decide");
        assertEquals(400, missing.statusCode());
        assertEquals("missing parameter `url`\n", missing.body());
        HttpResponse<String> relative = get("/decide?url=" + encode("/just/a/path"));
        assertEquals(400, relative.statusCode());
        assertEquals("parameter `url` must be an absolute http or https URL\n", relative.body());
    }

    /** Writes beside the file and renames over it, as editors and config pushers do: the watcher sees whole files. */
    private void replacePolicy(String text) throws IOException {
        Path next = dir.resolve(".agent.yaml.next");
        Files.writeString(next, text);
        Files.move(next, policy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private ProgramSwap nextSwap() throws InterruptedException {
        ProgramSwap swap = swaps.poll(20, TimeUnit.SECONDS);
        assertNotNull(swap, "no program swap within 20 s");
        return swap;
    }

    /**
     * The first swap to a program of {@code policy} (empty: a deny-all for an unusable file), within 20 s: a file
     * system may report one replacement as more than one event, and the swaps of earlier events then come first.
     */
    private ProgramSwap swapTo(String policy) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        ProgramSwap swap;
        do {
            swap = swaps.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertNotNull(swap, "no swap to a program of `" + policy + "` within 20 s");
        } while (!swap.policy().equals(policy));
        return swap;
    }

    private String decide(String url, String method, String caller) throws Exception {
        String query = "url=" + encode(url) + "&method=" + method + (caller == null ? "" : "&caller=" + encode(caller));
        HttpResponse<String> response = get("/decide?" + query);
        assertEquals(200, response.statusCode(), response.body());
        return response.body().strip();
    }

    private HttpResponse<String> get(String pathAndQuery) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + pathAndQuery))
                .timeout(Duration.ofSeconds(10)).GET().build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String firstTwoWords(String line) {
        String[] words = line.split(" ");
        return words[0] + " " + words[1];
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}

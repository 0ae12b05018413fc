package dev.stockade.api.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The official AWS SDK for Java inside a real local sandbox, created through the API with a policy naming an AWS
 * connection: unchanged code ({@link CallerIdentityProgram}) finds the container credentials at the link-local address
 * the sandbox's namespace maps to the platform, and its calls reach the STS double through the egress proxy signed
 * with the assumed role's key; credentials close to expiry are fetched again; after a halt, or once the policy stops
 * naming the connection, the fetch is refused and audited.
 */
@MicronautTest(transactional = false)
class AwsSdkInSandboxTest extends PlatformTest {
    private static final String ROLE = "arn:aws:iam::123456789012:role/agents";
    private static final String EXTERNAL_ID = "ext-for-sdk";
    /** The STS double as sandboxes reach it: a name the egress proxy resolves to the double's loopback listener. */
    private static final String STS_HOST = "sts.double.test";
    /** The SDK's jars and what they load (the Apache HTTP client, logging facades): the sandbox sees no ~/.m2. */
    private static final List<String> SDK_JARS = List.of("/software/amazon/", "/org/apache/httpcomponents/httpclient/",
            "/org/apache/httpcomponents/httpcore/", "/commons-logging/", "/commons-codec/", "/org/slf4j/slf4j-api/",
            "/org/reactivestreams/");
    /** What every sandbox's policy says: egress to the STS double only, and AWS connection {@code prod}. */
    private static final String POLICY_BODY = "networkDefaultVerdict: deny\nallowedDomains:\n  - {pattern: " + STS_HOST
            + ", verdict: allow}\nintegrations:\n  - {type: aws-connection, name: prod}\n";
    private StsDouble sts;

    private boolean warmed;

    @Inject
    LocalProvisioner provisioner;

    @Inject
    StsEndpoints endpoints;

    @Override
    protected Map<String, String> extraProperties() {
        try {
            sts = new StsDouble("AKIAPLATFORM", "platform-secret", ROLE, EXTERNAL_ID);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Map.of("aws.allow-loopback-unsafe", "true", "aws.allow-plain-http", "true",
                "aws.test-source-key-id", "AKIAPLATFORM", "aws.test-source-secret", "platform-secret",
                "sandbox.egress.allow-loopback-origins", "true", "sandbox.egress.resolve", STS_HOST + "=127.0.0.1");
    }

    @AfterAll
    void stopSts() {
        sts.close();
    }

    @BeforeEach
    void machine() {
        Requires.bubblewrap();
        Requires.root();
        Requires.executable("/usr/sbin/nft", "nftables");
        sts.lifetime(null);
        warmStsPath();
    }

    /**
     * The SDK in a sandbox gives each credentials fetch one second (its {@code ConnectionUtils}) and five retries;
     * the platform's first AssumeRole in a JVM loads the STS client's classes and endpoint rules, which on a loaded
     * 2-core machine takes longer. Done once here through the platform's own {@link StsEndpoints}, under a session
     * name no sandbox has, so the fetches under test measure the platform, not class loading.
     */
    private void warmStsPath() {
        if (warmed) {
            return;
        }
        AwsConnection c = new AwsConnection(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "warm", ROLE,
                EXTERNAL_ID, "eu-west-1", 900, sts.url(), Instant.now(), Instant.now());
        try (StsClient client = endpoints.client(c, StaticCredentialsProvider.create(
                AwsBasicCredentials.create("AKIAPLATFORM", "platform-secret")))) {
            client.assumeRole(r -> r.roleArn(ROLE).externalId(EXTERNAL_ID).roleSessionName("warm-up")
                    .durationSeconds(900));
        }
        warmed = true;
    }

    /** A running sandbox of its own organization. */
    private record Sandboxed(String id, String org, String owner) {
    }

    /** A project of its own organization, with AWS connection {@code prod} assuming the double's role. */
    private record Project(String owner, String org, String id) {
    }

    private Project project() {
        String owner = ownerToken();
        String org = createOrg(owner, "aws-sdk-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        Http.Response c = http.post("/v1/projects/" + project + "/aws-connections", owner, Map.of("name", "prod",
                "roleArn", ROLE, "region", "eu-west-1", "externalId", EXTERNAL_ID, "stsEndpoint", sts.url()));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        return new Project(owner, org, project);
    }

    /**
     * A running sandbox whose embedded policy names connection {@code prod} and allows egress to the STS double only,
     * with the program and the SDK's jars copied into its volume.
     */
    private Sandboxed sandbox() throws IOException {
        return start(project(), "policy:\n  name: p\n" + POLICY_BODY.indent(2));
    }

    /** Creates sandbox {@code yaml} (its name and size added) in {@code p}, waits for it to run, installs the SDK. */
    private Sandboxed start(Project p, String yaml) throws IOException {
        Http.Response made = http.send("POST", "/v1/projects/" + p.id() + "/sandboxes", p.owner(), "application/yaml",
                "name: agent\ncpu: 1\nmemory: 1Gi\n" + yaml);
        assertThat(made.status()).as(made.raw()).isEqualTo(201);
        String id = made.text("id");
        String path = "/v1/projects/" + p.id() + "/sandboxes/" + id;
        Await.until("the sandbox to run", Await.LONG, () -> http.get(path, p.owner()).text("state").equals("running"));
        install(dataDir.resolve("sandboxes").resolve(id).resolve("volume"));
        return new Sandboxed(id, p.org(), p.owner());
    }

    /** Copies (never links: the sandbox may write its volume) the SDK's jars and the program's class. */
    private static void install(Path volume) throws IOException {
        Path jars = Files.createDirectories(volume.resolve("sdk"));
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith(".jar") && SDK_JARS.stream().anyMatch(entry::contains)) {
                Files.copy(Path.of(entry), jars.resolve(Path.of(entry).getFileName()));
            }
        }
        String name = CallerIdentityProgram.class.getName().replace('.', '/') + ".class";
        Path classes = Path.of(CallerIdentityProgram.class.getProtectionDomain().getCodeSource().getLocation()
                .getPath());
        Path target = volume.resolve("classes").resolve(name);
        Files.createDirectories(target.getParent());
        Files.copy(classes.resolve(name), target);
    }

    /** Runs the program in the sandbox: {@code calls} calls, the STS endpoint set as any user would, {@code env}. */
    private String program(Sandboxed s, int calls, String... env) throws Exception {
        List<String> argv = new ArrayList<>(List.of("env", "AWS_ENDPOINT_URL_STS=http://" + STS_HOST + ":"
                + sts.port()));
        argv.addAll(List.of(env));
        argv.addAll(List.of("java", "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", "/workspace/sdk/*:/workspace/classes",
                CallerIdentityProgram.class.getName(), Integer.toString(calls)));
        return exec(s, argv);
    }

    private String exec(Sandboxed s, List<String> argv) throws Exception {
        try (ExecProcess p = provisioner.exec(s.id(), new ExecRequest(argv, false, 0, 0))) {
            p.stdin().close();
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
                try {
                    return p.stderr().readAllBytes();
                } catch (IOException e) {
                    return new byte[0];
                }
            });
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
            p.exit().get(90, TimeUnit.SECONDS);
            return out + new String(err.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
        }
    }

    /** The AssumeRole calls the platform made for sandbox {@code id}, in order. */
    private List<StsDouble.Assumed> assumedFor(String id) {
        return sts.assumed.stream().filter(a -> a.sessionName().equals("stockade-" + id)).toList();
    }

    @Test
    void theSdkSignsWithTheAssumedRolesKeyFetchedFromTheLinkLocalAddressUntilTheHalt() throws Exception {
        Sandboxed s = sandbox();
        assertThat(exec(s, List.of("printenv", "AWS_CONTAINER_CREDENTIALS_FULL_URI")).strip())
                .isEqualTo("http://169.254.170.2/v1/sandbox/aws-credentials/prod");
        int called = sts.called.size();
        String out = program(s, 2);
        String arn = "arn:aws:sts::123456789012:assumed-role/agents/stockade-" + s.id();
        assertThat(out.lines().filter(l -> l.startsWith("caller ")).toList()).as(out)
                .containsExactly("caller " + arn, "caller " + arn);
        // an hour-long session is far from expiry: one AssumeRole, and both calls signed with its key
        List<StsDouble.Assumed> assumed = assumedFor(s.id());
        assertThat(assumed).hasSize(1);
        assertThat(assumed.get(0).externalId()).isEqualTo(EXTERNAL_ID);
        assertThat(sts.called.subList(called, sts.called.size())).containsExactly(
                new StsDouble.Called(assumed.get(0).accessKeyId(), arn),
                new StsDouble.Called(assumed.get(0).accessKeyId(), arn));

        // the blocker this address removes: the SDK refuses plain http to the bridge's address
        String bridge = program(s, 1, "AWS_CONTAINER_CREDENTIALS_FULL_URI=" + provisioner.platformApiUrl()
                + "/sandbox/aws-credentials/prod");
        assertThat(bridge).startsWith("failed ").contains("AWS_CONTAINER_CREDENTIALS_FULL_URI has an invalid host");

        // the mapping opens no other way out, and the sandbox cannot change it
        String fence = exec(s, List.of("sh", "-c", "nft flush ruleset; echo nft=$?; curl -sS -m 5 --noproxy '*'"
                + " http://169.254.170.2:81/; curl -sS -m 5 --noproxy '*' http://169.254.169.254/; ip route"));
        assertThat(fence).doesNotContain("nft=0").contains("port 81").contains("169.254.169.254");
        assertThat(fence.lines().filter(l -> l.contains("dev eth0")).toList()).hasSize(1);

        assertThat(http.post("/v1/orgs/" + s.org() + "/halt", s.owner(), null).status()).isEqualTo(200);
        called = sts.called.size();
        String halted = program(s, 1);
        assertThat(halted).startsWith("failed ")
                .contains("ContainerCredentialsProvider(): Failed to load credentials from metadata service");
        assertThat(sts.called).hasSize(called);
        assertThat(refusals(s)).contains("halted");
    }

    /** The {@code why} of each refused credentials fetch the trail holds for the sandbox. */
    private List<String> refusals(Sandboxed s) {
        JsonNode items = http.get("/v1/orgs/" + s.org() + "/audit-trail?kind=aws-connection", s.owner()).body()
                .path("items");
        return StreamSupport.stream(items.spliterator(), false)
                .filter(e -> e.path("action").asText().equals("credentials"))
                .filter(e -> e.path("details").path("sandboxId").asText().equals(s.id()))
                .filter(e -> e.path("outcome").asText().equalsIgnoreCase("denied"))
                .map(e -> e.path("details").path("why").asText()).toList();
    }

    @Test
    void credentialsCloseToTheirExpiryAreFetchedAgainBeforeTheNextCall() throws Exception {
        // SDK 2.40.2's ContainerCredentialsProvider prefetches from 15 minutes before the served expiration (jittered
        // to at most a minute before its stale time, expiration - 1 min): 100 s credentials are fetched again at the
        // next call; the platform's refresh window (5 min) is longer too, so each fetch assumes the role again
        sts.lifetime(Duration.ofSeconds(100));
        Sandboxed s = sandbox();
        int called = sts.called.size();
        String out = program(s, 2);
        assertThat(out.lines().filter(l -> l.startsWith("caller ")).count()).as(out).isEqualTo(2);
        // each call signed with credentials of its own, the second's issued after the first's (the SDK may fetch
        // more than once per call: it resolves the identity again while the credentials stay inside its window)
        List<String> used = sts.called.subList(called, sts.called.size()).stream().map(StsDouble.Called::accessKeyId)
                .toList();
        assertThat(used).hasSize(2).doesNotHaveDuplicates();
        assertThat(assumedFor(s.id())).extracting(StsDouble.Assumed::accessKeyId)
                .containsSubsequence(used.get(0), used.get(1));
    }

    @Test
    void aPolicyThatStopsNamingTheConnectionRefusesTheRunningSandboxsNextFetch() throws Exception {
        Project p = project();
        Http.Response policy = http.send("POST", "/v1/projects/" + p.id() + "/policies", p.owner(),
                "application/yaml", "name: agent-aws\n" + POLICY_BODY);
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Sandboxed s = start(p, "policies: [" + policy.text("id") + "]\n");
        assertThat(program(s, 1)).startsWith("caller arn:aws:sts::123456789012:assumed-role/agents/stockade-" + s.id());

        Http.Response patched = http.send("PATCH", "/v1/projects/" + p.id() + "/policies/" + policy.text("id"),
                p.owner(), "application/json", Map.of("name", "agent-aws", "integrations", List.of()));
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
        int called = sts.called.size();
        // a new process fetches afresh (the sandbox keeps its environment: it is not restarted)
        assertThat(program(s, 1)).startsWith("failed ")
                .contains("ContainerCredentialsProvider(): Failed to load credentials from metadata service");
        assertThat(sts.called).hasSize(called);
        assertThat(refusals(s)).contains("not-named");
    }
}

package dev.stockade.api.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.api.credentials.CredentialInput;
import dev.stockade.api.governance.PolicyChecks;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.StorableText;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.model.Documents;
import dev.stockade.policy.model.ParsedDocument;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.PolicyUpdates;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.UpdateResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Reads sandbox create and update bodies (JSON or YAML, through the core's parser so problems carry line and column)
 * and checks every field; the embedded policy is the core's to check and, on update, to merge
 * ({@link PolicyUpdates#embedded}). A body with any problem changes nothing.
 */
final class SandboxBody {
    static final int MAX_PORTS = 4;
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?");
    private static final Set<String> CREATE_KEYS = Set.of("name", "cpu", "memory", "image", "policies",
            "credentials", "ownCredentials", "policy", "ports", "autoStop", "autoDelete", "autoStart");
    private static final Set<String> PATCH_KEYS = Set.of("cpu", "memory", "image", "policies", "credentials",
            "policy", "ports", "autoStop", "autoDelete", "autoStart");

    /** The install ceiling for one sandbox ({@code sandbox.k8s.cpu}, {@code sandbox.k8s.memory}). */
    record Ceiling(long cpuMillis, long memoryBytes, String cpu, String memory) {
    }

    /** Timer settings; null durations are off. */
    record Timers(Duration autoStop, Duration autoDelete, boolean autoStart) {
    }

    record Create(String name, SandboxConfig config, Timers timers, List<CredentialInput> ownCredentials) {
    }

    record Patch(SandboxConfig config, boolean configChanged, Timers timers) {
    }

    private final ParsedDocument doc;
    private final List<FieldError> errors = new ArrayList<>();

    private SandboxBody(String text) {
        this.doc = Documents.parse("request body", text == null ? "" : text);
        if (doc.root() == null || doc.hasErrors()) {
            throw PolicyChecks.rejected(doc.problems(), doc.sourceMap());
        }
        if (!doc.root().isObject()) {
            throw ApiProblem.invalid("", "wrong-type", "the body must be an object");
        }
        StorableText.check(doc.root());
    }

    static Create create(String text, Ceiling ceiling) {
        SandboxBody b = new SandboxBody(text);
        ObjectNode root = (ObjectNode) b.doc.root();
        b.unknownKeys(root, CREATE_KEYS);
        String name = b.required(root, "name");
        if (name != null && !NAME.matcher(name).matches()) {
            b.error("/name", "pattern", "`name` must be 1 to 40 lowercase letters, digits and inner hyphens");
        }
        String cpu = b.required(root, "cpu");
        String memory = b.required(root, "memory");
        JsonNode policy = root.has("policy") ? root.get("policy") : NullNode.getInstance();
        if (!policy.isNull()) {
            b.checkPolicy(policy);
        }
        SandboxConfig config = b.config(cpu, memory, text(root, "image"), b.ids(root, "policies"),
                b.ids(root, "credentials"), policy, b.ports(root), ceiling);
        Timers timers = b.timers(root, new Timers(null, null, false));
        List<CredentialInput> own = b.ownCredentials(root);
        b.finish();
        return new Create(name, config, timers, own);
    }

    static Patch patch(String text, SandboxConfig current, Timers timers, Ceiling ceiling) {
        SandboxBody b = new SandboxBody(text);
        ObjectNode root = (ObjectNode) b.doc.root();
        b.unknownKeys(root, PATCH_KEYS);
        JsonNode policy = current.policy();
        if (root.has("policy")) {
            ObjectNode only = root.objectNode();
            only.set("policy", root.get("policy"));
            UpdateResult merged = PolicyUpdates.embedded(current.embedded(), only);
            if (!merged.applied()) {
                b.coreProblems(merged.problems(), "/policy");
            }
            policy = merged.result();
        }
        String cpu = root.has("cpu") ? b.text(root, "cpu", true) : current.cpu();
        String memory = root.has("memory") ? b.text(root, "memory", true) : current.memory();
        SandboxConfig config = b.config(cpu, memory, root.has("image") ? text(root, "image") : current.image(),
                root.has("policies") ? b.ids(root, "policies") : current.policies(),
                root.has("credentials") ? b.ids(root, "credentials") : current.credentials(), policy,
                root.has("ports") ? b.ports(root) : current.ports(), ceiling);
        Timers next = b.timers(root, timers);
        b.finish();
        boolean changed = !config.toJson().equals(current.toJson());
        return new Patch(config, changed, next);
    }

    private SandboxConfig config(String cpu, String memory, String image, List<UUID> policies, List<UUID> credentials,
                                 JsonNode policy, List<SandboxConfig.Port> ports, Ceiling ceiling) {
        long millis = cpu == null ? -1 : Quantities.cpuMillis(cpu);
        long bytes = memory == null ? -1 : Quantities.memoryBytes(memory);
        if (cpu != null && millis <= 0) {
            error("/cpu", "quantity", "`cpu` must be cores (`2`, `0.5`) or millicores (`500m`), more than zero");
        } else if (cpu != null && millis > ceiling.cpuMillis()) {
            error("/cpu", "above-ceiling", "`cpu` " + cpu + " is above this installation's limit of " + ceiling.cpu()
                    + " (sandbox.k8s.cpu); requests are rejected, not clipped");
        }
        if (memory != null && bytes < (16L << 20)) {
            error("/memory", "quantity", "`memory` must be at least 16Mi, written like `512Mi`, `2Gi` or bytes");
        } else if (memory != null && bytes > ceiling.memoryBytes()) {
            error("/memory", "above-ceiling", "`memory` " + memory + " is above this installation's limit of "
                    + ceiling.memory() + " (sandbox.k8s.memory); requests are rejected, not clipped");
        }
        return new SandboxConfig(cpu, millis, memory, bytes, image, policies, credentials, policy, ports);
    }

    private void checkPolicy(JsonNode policy) {
        if (!policy.isObject()) {
            error("/policy", "wrong-type", "`policy` must be a policy object or null");
            return;
        }
        ReadResult r = PolicyReader.fromTree(policy, doc.sourceMap().rebase("/policy"), "request body", doc.text());
        if (!r.valid()) {
            coreProblems(r.problems(), "/policy");
        }
    }

    private void coreProblems(List<Problem> problems, String prefix) {
        ApiProblem p = PolicyChecks.rejected(problems.stream().map(x -> x.pointer().startsWith(prefix) ? x
                : x.withPointerPrefix(prefix)).toList(), doc.sourceMap());
        errors.addAll(p.errors());
    }

    private List<SandboxConfig.Port> ports(ObjectNode root) {
        List<SandboxConfig.Port> out = new ArrayList<>();
        JsonNode ports = root.path("ports");
        if (ports.isMissingNode() || ports.isNull()) {
            return out;
        }
        if (!ports.isArray()) {
            error("/ports", "wrong-type", "`ports` must be a list");
            return out;
        }
        if (ports.size() > MAX_PORTS) {
            error("/ports", "too-many", "a sandbox exposes at most " + MAX_PORTS + " ports");
            return out;
        }
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode p = ports.get(i);
            int port = p.path("port").isInt() ? p.path("port").asInt() : -1;
            String vis = p.path("visibility").asText("private");
            unknownKeys(p, Set.of("port", "visibility"), "/ports/" + i);
            if (port < 1 || port > 65535 || !seen.add(port)) {
                error("/ports/" + i + "/port", "port", "`port` must be a distinct number from 1 to 65535");
            }
            if (!vis.equals("private") && !vis.equals("public")) {
                error("/ports/" + i + "/visibility", "enum", "`visibility` is `private` or `public`");
            }
            out.add(new SandboxConfig.Port(port, vis));
        }
        return out;
    }

    private Timers timers(ObjectNode root, Timers current) {
        Duration stop = root.has("autoStop") ? duration(root, "autoStop") : current.autoStop();
        Duration delete = root.has("autoDelete") ? duration(root, "autoDelete") : current.autoDelete();
        boolean start = current.autoStart();
        if (root.has("autoStart")) {
            if (root.get("autoStart").isBoolean()) {
                start = root.get("autoStart").asBoolean();
            } else {
                error("/autoStart", "wrong-type", "`autoStart` must be true or false");
            }
        }
        return new Timers(stop, delete, start);
    }

    private Duration duration(ObjectNode root, String key) {
        JsonNode v = root.get(key);
        if (v.isNull()) {
            return null;
        }
        Duration d = v.isTextual() ? Quantities.duration(v.asText()) : null;
        if (d == null) {
            error("/" + key, "duration", "`" + key + "` must be a duration with a unit suffix: `30m`, `12h`, `7d`,"
                    + " `2w` (or null to turn it off)");
        }
        return d;
    }

    private List<UUID> ids(ObjectNode root, String key) {
        List<UUID> out = new ArrayList<>();
        JsonNode list = root.path(key);
        if (list.isMissingNode() || list.isNull()) {
            return out;
        }
        if (!list.isArray() || list.size() > 50) {
            error("/" + key, "wrong-type", "`" + key + "` must be a list of at most 50 ids");
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            try {
                UUID id = UUID.fromString(list.get(i).asText());
                if (!out.contains(id)) {
                    out.add(id);
                }
            } catch (IllegalArgumentException e) {
                error("/" + key + "/" + i, "uuid", "`" + key + "/" + i + "` is not an id");
            }
        }
        return out;
    }

    private List<CredentialInput> ownCredentials(ObjectNode root) {
        List<CredentialInput> out = new ArrayList<>();
        JsonNode list = root.path("ownCredentials");
        if (list.isMissingNode() || list.isNull()) {
            return out;
        }
        if (!list.isArray() || list.size() > 20) {
            error("/ownCredentials", "wrong-type", "`ownCredentials` must be a list of at most 20 credentials");
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode c = list.get(i);
            unknownKeys(c, Set.of("name", "secret", "domains", "headerFormat"), "/ownCredentials/" + i);
            List<String> domains = new ArrayList<>();
            c.path("domains").forEach(d -> domains.add(d.asText()));
            out.add(new CredentialInput(c.hasNonNull("name") ? c.get("name").asText() : null,
                    c.hasNonNull("secret") ? c.get("secret").asText() : null,
                    c.has("domains") ? domains : null,
                    c.hasNonNull("headerFormat") ? c.get("headerFormat").asText() : null));
        }
        return out;
    }

    private String required(ObjectNode root, String key) {
        if (!root.hasNonNull(key)) {
            error("/" + key, "required", "`" + key + "` is required");
            return null;
        }
        return text(root, key, true);
    }

    private String text(ObjectNode root, String key, boolean numbersToo) {
        JsonNode v = root.get(key);
        if (v.isTextual() || (numbersToo && v.isNumber())) {
            return v.asText();
        }
        error("/" + key, "wrong-type", "`" + key + "` must be text");
        return null;
    }

    private static String text(ObjectNode root, String key) {
        return root.hasNonNull(key) ? root.get(key).asText() : null;
    }

    private void unknownKeys(JsonNode node, Set<String> allowed) {
        unknownKeys(node, allowed, "");
    }

    private void unknownKeys(JsonNode node, Set<String> allowed, String at) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            String key = it.next();
            if (!allowed.contains(key)) {
                error(at + "/" + key, "unknown-key", "unknown key `" + key + "`");
            }
        }
    }

    private void error(String pointer, String code, String detail) {
        // a missing key has no position of its own: its nearest ancestor's (the object it belongs in)
        var pos = doc.sourceMap().nearest(pointer);
        errors.add(new FieldError(pointer, code, detail, pos.line() > 0 ? pos.line() : null,
                pos.column() > 0 ? pos.column() : null));
    }

    private void finish() {
        if (!errors.isEmpty()) {
            String detail = errors.size() == 1 ? errors.get(0).detail() : errors.size() + " problems in the body";
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, detail, errors);
        }
    }
}

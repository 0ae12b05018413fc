package dev.stockade.cli.testing;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.cli.testing.CaseResult.CaseContext;
import dev.stockade.policy.compiler.ConnectorReach;
import dev.stockade.policy.compiler.DescribeRows;
import dev.stockade.policy.compiler.InstallFacts;
import dev.stockade.policy.compiler.PolicyCompiler;
import dev.stockade.policy.compiler.Resolution;
import dev.stockade.policy.compiler.ResolutionTooLarge;
import dev.stockade.policy.compiler.Resolver;
import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EffectiveEntry;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.model.ParsedDocument;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.PolicyUpdates;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.SourcePosition;
import dev.stockade.policy.model.UpdateResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** One suite of a test file: runs its sections in FORMAT.md order and records a result per case. */
final class SuiteRun {
    private final ParsedDocument doc;
    private final JsonNode suite;
    private final String suiteName;
    private final PolicySources sources;
    private final List<FormatError> errors;
    private final Map<List<JsonNode>, Resolution> resolutions = new HashMap<>();
    private final Map<List<JsonNode>, DecisionProgram> programs = new HashMap<>();
    private final Map<List<JsonNode>, List<CoverageRecorder.Loaded>> reached = new HashMap<>();
    private final CoverageRecorder coverage;

    SuiteRun(Path file, ParsedDocument doc, List<FormatError> errors, CoverageRecorder coverage) {
        this.doc = doc;
        this.suite = doc.root();
        this.suiteName = suite.path("name").asText();
        this.sources = new PolicySources(file, doc);
        this.errors = errors;
        this.coverage = coverage;
    }

    void run(List<CaseResult> out) {
        section("validate", out, this::validate);
        section("update", out, this::update);
        section("describe", out, this::describe);
        section("cases", out, this::decide);
        section("effective", out, this::effective);
        section("spend", out, CoreRuleCases::spend);
        section("reservation", out, CoreRuleCases::reservation);
        section("connectorReach", out, this::connectorReach);
        section("suggest", out, SuggestCases::suggest);
    }

    private interface CaseBody {
        CaseResult run(CaseContext ctx, JsonNode node, String pointer);
    }

    private void section(String kind, List<CaseResult> out, CaseBody body) {
        JsonNode cases = suite.path(kind);
        for (int i = 0; i < cases.size(); i++) {
            String pointer = "/" + kind + "/" + i;
            JsonNode node = cases.get(i);
            SourcePosition pos = doc.sourceMap().nearest(pointer);
            CaseContext ctx = new CaseContext(doc.sourceName(), pos == null ? 0 : pos.line(), suiteName, kind,
                    node.path("name").asText());
            try {
                out.add(body.run(ctx, node, pointer));
            } catch (FormatProblem e) {
                errors.add(PolicyTestRunner.at(doc, e.pointer(), e.getMessage()));
            } catch (RuntimeException e) {
                // A bug of ours must not hide the other cases: the case fails and says so.
                out.add(CaseResult.failed(ctx, "the case to run", "internal error: " + e));
            }
        }
    }

    private CaseResult validate(CaseContext ctx, JsonNode node, String pointer) {
        ReadResult read = sources.load(node.get("policy"), pointer + "/policy");
        JsonNode expect = node.get("expect");
        List<Problem> problems = Expectations.errorsOf(read.problems());
        if (expect.get("valid").asBoolean()) {
            return problems.isEmpty() ? CaseResult.passed(ctx)
                    : CaseResult.failed(ctx, "valid", "invalid: " + Expectations.describe(problems));
        }
        if (problems.isEmpty()) {
            return CaseResult.failed(ctx, "invalid", "valid");
        }
        return Expectations.pointers(ctx, expect, problems);
    }

    private CaseResult update(CaseContext ctx, JsonNode node, String pointer) {
        String mode = node.get("mode").asText();
        JsonNode stored = sources.rawTree(node.path("stored"), pointer + "/stored");
        JsonNode body = node.get("body");
        UpdateResult result = switch (mode) {
            case "embedded" -> PolicyUpdates.embedded(stored, body);
            case "standalone" -> PolicyUpdates.standalone(stored, body);
            default -> throw new FormatProblem(pointer + "/mode", "mode must be `embedded` or `standalone`, not " + Quoted.input(mode));
        };
        JsonNode expect = node.get("expect");
        if (expect.has("errors")) {
            List<Problem> problems = Expectations.errorsOf(result.problems());
            if (result.applied() || problems.isEmpty()) {
                return CaseResult.failed(ctx, "the update refused", "applied: " + Expectations.compact(result.result()));
            }
            return Expectations.pointers(ctx, expect, problems);
        }
        if (!expect.has("result")) {
            throw new FormatProblem(pointer + "/expect", "update expect needs `result` or `errors`");
        }
        if (!result.applied()) {
            return CaseResult.failed(ctx, "applied", "refused: " + Expectations.describe(result.problems()));
        }
        return Expectations.sameDocument(ctx, expect.get("result"), result.result());
    }

    private CaseResult describe(CaseContext ctx, JsonNode node, String pointer) {
        ReadResult read = sources.load(node.get("policy"), pointer + "/policy");
        if (!read.valid()) {
            return CaseResult.failed(ctx, "a valid policy", "invalid: " + Expectations.describe(read.problems()));
        }
        List<String> rows = read.policy().domains().stream().map(DescribeRows::row).toList();
        return Expectations.rows(ctx, node.get("expect"), rows);
    }

    private CaseResult decide(CaseContext ctx, JsonNode node, String pointer) {
        DecisionProgram program = program(node, pointer);
        EgressRequest request;
        try {
            request = RequestFactory.from(node.get("request"));
        } catch (IllegalArgumentException e) {
            throw new FormatProblem(pointer + "/request", e.getMessage());
        }
        Decision decision = program.decide(request);
        recordCoverage(node, pointer, program, request, decision);
        return Expectations.decision(ctx, node.get("expect"), decision);
    }

    /** What the case reached, for {@code policy test --coverage}: the entries of its row and what decided. */
    private void recordCoverage(JsonNode node, String pointer, DecisionProgram program, EgressRequest request,
            Decision decision) {
        List<CoverageRecorder.Loaded> loaded = reached.get(inputs(node));
        if (loaded == null) {
            loaded = new ArrayList<>(loaded(pick(node, "policies"), where(node, pointer, "policies"), false));
            loaded.addAll(loaded(pick(node, "ceiling"), where(node, pointer, "ceiling"), true));
            reached.put(inputs(node), loaded);
            coverage.declare(loaded);
        }
        int row = program.entryIndexOf(request);
        List<EffectiveEntry> rows = resolution(node, pointer).effective().entries();
        coverage.reached(loaded, decision, row < 0 || row >= rows.size() ? List.of() : rows.get(row).components());
    }

    private CaseResult effective(CaseContext ctx, JsonNode node, String pointer) {
        Resolution resolution = resolution(node, pointer);
        return Expectations.effective(ctx, node.get("expect"), resolution);
    }

    /** Each project resolved by the core from its own policies, then merged across projects by the core. */
    private CaseResult connectorReach(CaseContext ctx, JsonNode node, String pointer) {
        List<ConnectorReach.ProjectGrants> projects = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        JsonNode given = node.path("projects");
        for (int i = 0; i < given.size(); i++) {
            JsonNode p = given.get(i);
            String at = pointer + "/projects/" + i;
            String label = p.path("org").asText();
            labels.add(label);
            Resolution r = Resolver.resolve(null, policies(p.path("ceiling"), at + "/ceiling"),
                    policies(p.path("policies"), at + "/policies"));
            projects.add(new ConnectorReach.ProjectGrants(CoreRuleCases.org(label),
                    UUID.nameUUIDFromBytes((label + "/" + i).getBytes(StandardCharsets.UTF_8)), r.connectorGrants()));
        }
        Set<UUID> halted = new HashSet<>();
        node.path("halted").forEach(h -> halted.add(CoreRuleCases.org(h.asText())));
        return CoreRuleCases.reach(ctx, node.get("expect"), ConnectorReach.across(projects, halted), labels);
    }

    private DecisionProgram program(JsonNode node, String pointer) {
        List<JsonNode> key = inputs(node);
        DecisionProgram program = programs.get(key);
        if (program == null) {
            program = PolicyCompiler.compile(resolution(node, pointer), CompileOptions.defaults());
            programs.put(key, program);
        }
        return program;
    }

    private Resolution resolution(JsonNode node, String pointer) {
        List<JsonNode> key = inputs(node);
        Resolution cached = resolutions.get(key);
        if (cached != null) {
            return cached;
        }
        InstallFacts install = sources.install(pick(node, "install"), where(node, pointer, "install"));
        List<Policy> ceiling = policies(pick(node, "ceiling"), where(node, pointer, "ceiling"));
        List<Policy> grants = policies(pick(node, "policies"), where(node, pointer, "policies"));
        Resolution resolution;
        try {
            resolution = Resolver.resolve(install, ceiling, grants);
        } catch (ResolutionTooLarge e) {
            throw new FormatProblem(pointer, e.getMessage());
        }
        resolutions.put(key, resolution);
        return resolution;
    }

    private List<Policy> policies(JsonNode list, String pointer) {
        return loaded(list, pointer, false).stream().map(l -> l.read().policy()).toList();
    }

    /**
     * The valid policies of {@code list}, each with the identity coverage counts it under: the file for a policy
     * read by path, the test file and the policy's position for an inline one (one file holds several suites).
     */
    private List<CoverageRecorder.Loaded> loaded(JsonNode list, String pointer, boolean ceiling) {
        List<CoverageRecorder.Loaded> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            ReadResult read = sources.load(list.get(i), pointer + "/" + i);
            if (!read.valid()) {
                throw new FormatProblem(pointer + "/" + i,
                        "policy is invalid: " + Expectations.describe(Expectations.errorsOf(read.problems())));
            }
            SourcePosition at = doc.sourceMap().nearest(pointer + "/" + i);
            String source = list.get(i).isTextual() ? read.sourceName()
                    : doc.sourceName() + "@" + (at == null ? pointer + "/" + i : at.line() + ":" + at.column());
            out.add(new CoverageRecorder.Loaded(read, source, ceiling));
        }
        return out;
    }

    /** The case's own value of a key, else the suite's. */
    private JsonNode pick(JsonNode node, String key) {
        return node.has(key) ? node.get(key) : suite.path(key);
    }

    private static String where(JsonNode node, String pointer, String key) {
        return node.has(key) ? pointer + "/" + key : "/" + key;
    }

    private List<JsonNode> inputs(JsonNode node) {
        return List.of(pick(node, "install"), pick(node, "ceiling"), pick(node, "policies"));
    }
}

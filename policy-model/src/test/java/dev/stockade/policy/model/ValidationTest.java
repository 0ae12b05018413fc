package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every validation rule, refused and accepted side. Documents are flow-style YAML on one line. */
class ValidationTest {

    static ReadResult read(String yaml) {
        return PolicyReader.read("p.yaml", yaml);
    }

    static String entry(String fields) {
        return "{name: p, allowedDomains: [{pattern: example.com, " + fields + "}]}";
    }

    static String graphql(String fields) {
        return entry("verdict: allow, rules: [{graphql: {" + fields + "}}]");
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("{description: x}", "missing-key", "/name"),
                Arguments.of("{name: ''}", "empty-name", "/name"),
                Arguments.of("{name: 5}", "wrong-type", "/name"),
                Arguments.of("{name: p, description: null}", "null-value", "/description"),
                Arguments.of("{name: p, colour: red}", "unknown-key", "/colour"),
                Arguments.of("{name: p, networkDefaultVerdict: block}", "unknown-value", "/networkDefaultVerdict"),
                Arguments.of("{name: p, networkDefaultTransport: tunnel}", "unknown-value", "/networkDefaultTransport"),
                Arguments.of("{name: p, allowedDomains: {}}", "wrong-type", "/allowedDomains"),
                Arguments.of(entry("verdict: allow, binary: [/x]"), "unknown-key", "/allowedDomains/0/binary"),
                Arguments.of("{name: p, allowedDomains: [{verdict: allow}]}", "missing-key", "/allowedDomains/0/pattern"),
                Arguments.of("{name: p, allowedDomains: [{pattern: a.com}]}", "missing-key", "/allowedDomains/0/verdict"),
                Arguments.of(entry("verdict: allow, binaries: [git]"), "binary-not-absolute", "/allowedDomains/0/binaries/0"),
                Arguments.of(entry("verdict: allow, binaries: ['/usr/bin/git ']"), "binary-whitespace", "/allowedDomains/0/binaries/0"),
                Arguments.of(entry("verdict: allow, binaries: ['/usr/bin/*']"), "binary-glob", "/allowedDomains/0/binaries/0"),
                Arguments.of(entry("verdict: allow, binaries: []"), "empty-binaries", "/allowedDomains/0/binaries"),
                Arguments.of(entry("verdict: deny, binaries: [/usr/bin/git]"), "fence-on-deny", "/allowedDomains/0/binaries"),
                Arguments.of(entry("verdict: allow, rules: []"), "empty-rules", "/allowedDomains/0/rules"),
                Arguments.of(entry("verdict: allow, rules: [{}]"), "empty-rule", "/allowedDomains/0/rules/0"),
                Arguments.of(entry("verdict: allow, rules: [{method: get}]"), "invalid-method", "/allowedDomains/0/rules/0/method"),
                Arguments.of(entry("verdict: allow, rules: [{path: 'repos/*'}]"), "glob-syntax", "/allowedDomains/0/rules/0/path"),
                Arguments.of(entry("verdict: allow, rules: [{paths: /x}]"), "unknown-key", "/allowedDomains/0/rules/0/paths"),
                Arguments.of(entry("verdict: allow, scheme: HTTPS"), "invalid-scheme", "/allowedDomains/0/scheme"),
                Arguments.of("{name: p, allowedDomains: [{pattern: 'example.*', verdict: allow}]}", "glob-syntax", "/allowedDomains/0/pattern"),
                Arguments.of(graphql("operationName: q"), "missing-key", "/allowedDomains/0/rules/0/graphql/operationType"),
                Arguments.of(graphql("operationType: read"), "unknown-value", "/allowedDomains/0/rules/0/graphql/operationType"),
                Arguments.of(graphql("operationType: query, opName: x"), "unknown-key", "/allowedDomains/0/rules/0/graphql/opName"),
                Arguments.of(graphql("operationType: query, operationName: 'get-*'"), "glob-syntax", "/allowedDomains/0/rules/0/graphql/operationName"),
                Arguments.of(graphql("operationType: query, fields: []"), "empty-fields", "/allowedDomains/0/rules/0/graphql/fields"),
                Arguments.of(graphql("operationType: query, fields: ['a.b']"), "glob-syntax", "/allowedDomains/0/rules/0/graphql/fields/0"),
                Arguments.of(graphql("operationType: query, arguments: [{field: a, pointer: /x, glob: y}]"), "arguments-without-fields", "/allowedDomains/0/rules/0/graphql/arguments"),
                Arguments.of(graphql("operationType: query, fields: [a], arguments: []"), "empty-arguments", "/allowedDomains/0/rules/0/graphql/arguments"),
                Arguments.of(graphql("operationType: query, fields: [a], arguments: [{field: a, pointer: x, glob: y}]"), "invalid-pointer", "/allowedDomains/0/rules/0/graphql/arguments/0/pointer"),
                Arguments.of(graphql("operationType: query, fields: [a], arguments: [{field: a, pointer: /x~2, glob: y}]"), "invalid-pointer", "/allowedDomains/0/rules/0/graphql/arguments/0/pointer"),
                Arguments.of(graphql("operationType: query, fields: ['a*'], arguments: [{field: 'a*', pointer: /x, glob: y}]"), "argument-field-glob", "/allowedDomains/0/rules/0/graphql/arguments/0/field"),
                Arguments.of(graphql("operationType: query, fields: [repo], arguments: [{field: issue, pointer: /x, glob: y}]"), "argument-field-denied", "/allowedDomains/0/rules/0/graphql/arguments/0/field"),
                Arguments.of(graphql("operationType: query, fields: [a], arguments: [{field: 'a b', pointer: /x, glob: y}]"), "invalid-field-name", "/allowedDomains/0/rules/0/graphql/arguments/0/field"),
                Arguments.of(graphql("operationType: query, fields: [a], arguments: [{field: a, pointer: /x, glob: 'y\\'}]"), "glob-syntax", "/allowedDomains/0/rules/0/graphql/arguments/0/glob"),
                Arguments.of(graphql("operationType: query, fields: [a], arguments: [{field: a, pointer: /x}]"), "missing-key", "/allowedDomains/0/rules/0/graphql/arguments/0/glob"),
                Arguments.of("{name: p, connectors: [{connectorId: x, allowedTools: []}]}", "invalid-uuid", "/connectors/0/connectorId"),
                Arguments.of("{name: p, connectors: [{connectorId: 0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10, allowedTools: [], credentialId: y}]}", "invalid-uuid", "/connectors/0/credentialId"),
                Arguments.of("{name: p, connectors: [{connectorId: 0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10}]}", "missing-key", "/connectors/0/allowedTools"),
                Arguments.of("{name: p, connectors: [{connectorId: 0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10, allowedTools: ['*']}]}", "tool-wildcard", "/connectors/0/allowedTools/0"),
                Arguments.of("{name: p, connectors: [{connectorId: 0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10, allowedTools: ['']}]}", "invalid-tool-name", "/connectors/0/allowedTools/0"),
                Arguments.of("{name: p, integrations: [{type: gke, name: c}]}", "unknown-value", "/integrations/0/type"),
                Arguments.of("{name: p, integrations: [{type: kubernetes, name: ''}]}", "empty-value", "/integrations/0/name"),
                Arguments.of("{name: p, credentials: [{credentialName: gh, envVarKey: 'GH TOKEN'}]}", "invalid-env-name", "/credentials/0/envVarKey"),
                Arguments.of("{name: p, credentials: [{credentialName: gh}]}", "missing-key", "/credentials/0/envVarKey"),
                Arguments.of("{name: p, env: {A: 1}}", "wrong-type", "/env/A"),
                Arguments.of("{name: p, env: {'1A': x}}", "invalid-env-name", "/env/1A"),
                Arguments.of("{name: p, managedInference: {provider: gpt}}", "unknown-value", "/managedInference/provider"),
                Arguments.of("{name: p, managedInference: {provider: openai, providers: [bedrock]}}", "primary-provider-not-listed", "/managedInference/providers"),
                Arguments.of("{name: p, managedInference: {providers: [openai]}}", "primary-provider-not-listed", "/managedInference/providers"),
                Arguments.of("{name: p, managedInference: {provider: openai, providers: [openai, openai]}}", "duplicate-provider", "/managedInference/providers/1"),
                Arguments.of("{name: p, managedInference: {enabled: 'yes'}}", "wrong-type", "/managedInference/enabled"),
                Arguments.of("{name: p, managedInference: {model: x}}", "unknown-key", "/managedInference/model"),
                Arguments.of("{name: p, piiMasking: {types: [POSTAL_CODE]}}", "unknown-value", "/piiMasking/types/0"),
                Arguments.of("{name: p, piiMasking: {types: [email]}}", "unknown-value", "/piiMasking/types/0"),
                Arguments.of("{name: p, piiMasking: {failOpen: 1}}", "wrong-type", "/piiMasking/failOpen"),
                Arguments.of("{name: p, piiMasking: null}", "null-value", "/piiMasking"),
                Arguments.of("[1, 2]", "wrong-type", ""));
    }

    @ParameterizedTest(name = "{1} at {2}: {0}")
    @MethodSource("refused")
    void refusedWithCodeAtPointer(String yaml, String code, String pointer) {
        ReadResult r = read(yaml);
        assertThat(r.valid()).as("%s", r.problems()).isFalse();
        assertThat(r.policy()).isNull();
        assertThat(r.problems()).as("%s", r.problems())
                .anySatisfy(p -> {
                    assertThat(p.code()).isEqualTo(code);
                    assertThat(p.pointer()).isEqualTo(pointer);
                    assertThat(p.line()).isEqualTo(1);
                    assertThat(p.message()).doesNotEndWith(".").isEqualTo(p.message().strip());
                });
    }

    static Stream<String> accepted() {
        return Stream.of(
                "{name: p}",
                "{name: p, description: ''}",
                "{name: p, networkDefaultVerdict: deny, networkDefaultTransport: direct}",
                "{name: p, allowedDomains: []}",
                entry("verdict: allow, binaries: [/usr/bin/git, /usr/local/bin/gh]"),
                entry("verdict: deny"),
                entry("verdict: allow, transport: direct, scheme: https, description: d"),
                entry("verdict: allow, rules: [{method: GET}, {path: '/repos/**'}, {method: POST, path: /graphql}]"),
                "{name: p, allowedDomains: [{pattern: '*.example.com', verdict: allow}, {pattern: '*', verdict: deny}]}",
                "{name: p, allowedDomains: [{pattern: 'api-*.bücher.example', verdict: allow}]}",
                graphql("operationType: '*'"),
                graphql("operationType: subscription, operationName: 'Get*', fields: ['repo*', viewer]"),
                graphql("operationType: query, fields: ['*'], arguments: [{field: issue, pointer: '/input/a~1b~0', glob: 'acme\\*'}]"),
                graphql("operationType: mutation, fields: [repo], arguments: [{field: repo, pointer: /owner, glob: ''}]"),
                "{name: p, connectors: [{connectorId: 0B8F5A52-3C5B-4C4E-9A53-0D2F3F1F7E10, allowedTools: [], credentialId: 0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10}]}",
                "{name: p, connectors: [{connectorId: 0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10, allowedTools: [search, fetch]}]}",
                "{name: p, integrations: [{type: kubernetes, name: c}, {type: aws-connection, name: a}]}",
                "{name: p, credentials: [{credentialName: gh, envVarKey: GH_TOKEN}]}",
                "{name: p, env: {A: '1', _B: ''}}",
                "{name: p, managedInference: {enabled: true}}",
                "{name: p, managedInference: {providers: [bedrock, openai]}}",
                "{name: p, managedInference: {provider: litellm, providers: [openai, litellm], env: {ANTHROPIC_MODEL: m}}}",
                "{name: p, piiMasking: {types: [EMAIL, PHONE, CREDIT_CARD, PERSON, ADDRESS, LOCATION], unmaskResponses: true, failOpen: false}}",
                "{name: p, piiMasking: {types: []}}");
    }

    @ParameterizedTest
    @MethodSource("accepted")
    void accepted(String yaml) {
        ReadResult r = read(yaml);
        assertThat(r.problems()).isEmpty();
        assertThat(r.valid()).isTrue();
        assertThat(r.policy()).isNotNull();
    }

    @Test
    void transportOnDenyIsOnlyAWarning() {
        ReadResult r = read(entry("verdict: deny, transport: direct"));
        assertThat(r.valid()).isTrue();
        assertThat(r.policy()).isNotNull();
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("transport-on-deny");
            assertThat(p.severity()).isEqualTo(Severity.WARNING);
        });
    }

    @Test
    void duplicateToolIsAWarning() {
        ReadResult r = read("{name: p, connectors: [{connectorId: 0b8f5a52-3c5b-4c4e-9a53-0d2f3f1f7e10, allowedTools: [a, a]}]}");
        assertThat(r.valid()).isTrue();
        assertThat(r.problems()).extracting(Problem::code).containsExactly("duplicate-tool");
    }

    @Test
    void everyProblemIsReportedSortedByPosition() {
        String yaml = String.join("\n",
                "name: ''",
                "allowedDomains:",
                "  - pattern: 'a..com'",
                "    verdict: allow",
                "    binaries: [git]",
                "  - pattern: x.com",
                "    verdict: deny",
                "    binaries: [/bin/sh]",
                "bogus: 1");
        ReadResult r = read(yaml);
        assertThat(r.problems()).extracting(Problem::code).containsExactly(
                "empty-name", "glob-syntax", "binary-not-absolute", "fence-on-deny", "unknown-key");
        assertThat(r.problems()).extracting(Problem::line).containsExactly(1, 3, 5, 8, 9);
    }

    @Test
    void anInvalidPortIsAnErrorAtThePort() {
        ReadResult r = read("name: p\nallowedDomains:\n  - {pattern: \"api.example.com:08443\", verdict: allow}\n");
        assertThat(r.problems()).singleElement().satisfies(q -> {
            assertThat(q.code()).isEqualTo("invalid-port");
            assertThat(q.pointer()).isEqualTo("/allowedDomains/0/pattern");
            assertThat(q.message()).isEqualTo("port `08443` has a leading zero");
            assertThat(q.line()).isEqualTo(3);
            assertThat(q.column()).isEqualTo(16 + 16); // `api.example.com:` is 16 chars
        });
        ReadResult plain = read("name: p\nallowedDomains:\n  - pattern: x.com:65536\n    verdict: allow\n");
        assertThat(plain.problems()).extracting(Problem::code, Problem::column)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("invalid-port", 14 + 6));
    }

    @Test
    void portsAndIpv6LiteralsInPatterns() {
        for (String ok : List.of("api.example.com:8443", "*.example.com:8080", "[2001:db8::1]:8443", "[2001:db8::1]",
                "2001:db8::1", "10.0.0.1:8080")) {
            assertThat(read(pattern(ok)).problems()).as(ok).isEmpty();
        }
        assertThat(read(pattern("2001:db8::g")).problems()).extracting(Problem::code).containsExactly("glob-syntax");
        assertThat(read(pattern("a.*.com:0")).problems()).extracting(Problem::code)
                .containsExactlyInAnyOrder("invalid-port", "glob-syntax");
    }

    private static String pattern(String text) {
        return "{name: p, allowedDomains: [{pattern: '" + text + "', verdict: allow}]}";
    }

    @Test
    void globErrorColumnPointsInsideTheString() {
        ReadResult quoted = read("name: p\nallowedDomains:\n  - {pattern: \"api.*.com\", verdict: allow}\n");
        Problem q = quoted.problems().get(0);
        assertThat(q.code()).isEqualTo("glob-syntax");
        // `  - {pattern: "` is 15 chars; `*` is at offset 4 of the pattern
        assertThat(q.line()).isEqualTo(3);
        assertThat(q.column()).isEqualTo(16 + 4);
        ReadResult plain = read("name: p\nallowedDomains:\n  - pattern: api.*.com\n    verdict: allow\n");
        assertThat(plain.problems().get(0).column()).isEqualTo(14 + 4);
    }

    @Test
    void problemsAreCapped() {
        StringBuilder sb = new StringBuilder("{name: p, allowedDomains: [");
        for (int i = 0; i < 150; i++) {
            sb.append("{pattern: 'a..b', verdict: allow},");
        }
        sb.append("]}");
        List<Problem> problems = read(sb.toString()).problems();
        assertThat(problems).hasSize(PolicyReader.MAX_PROBLEMS + 1);
        assertThat(problems.get(PolicyReader.MAX_PROBLEMS).code()).isEqualTo("too-many-problems");
    }

    @Test
    void fromTreeUsesTheRebasedMapOfANestedDocument() {
        String text = "cases:\n  - name: c\n    policy:\n      name: p\n      colour: red\n";
        ParsedDocument doc = Documents.parse("t.yaml", text);
        SourceMap nested = doc.sourceMap().rebase("/cases/0/policy");
        ReadResult r = PolicyReader.fromTree(doc.root().at("/cases/0/policy"), nested, "t.yaml", text);
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/colour");
            assertThat(p.line()).isEqualTo(5);
            assertThat(p.column()).isEqualTo(7);
        });
    }

    @Test
    void boundPolicyKeepsAbsentAndEmptyApart() {
        Policy p = read(entry("verdict: allow, binaries: [/bin/a], rules: [{method: GET}]")).policy();
        DomainEntry e = p.allowedDomains().get(0);
        assertThat(e.binaries()).containsExactly("/bin/a");
        assertThat(e.transport()).isNull();
        assertThat(p.credentials()).isNull();
        assertThat(read("{name: p, credentials: []}").policy().credentials()).isEmpty();
    }
}

package dev.stockade.policy.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Unusual YAML never throws, never yields a policy with an error, and gives a positioned problem. */
class OddYamlTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "? [a, b]\n: c\nname: p\n",
        "name: !!binary aGVsbG8=\n",
        "base: &b {name: p}\n<<: *b\n",
        "name: p\n1: x\n",
        "name: p\ntrue: x\n",
        "name: p\nenv: {A: !!int '1'}\n",
        "name:\tp\n",
        "%YAML 1.1\n---\nname: p\nx: y\n",
        "name: [\n",
        "\uFEFF{\"name\": \"p\", \"x\": 1}",
        "name: p\nallowedDomains: [{pattern: \"\\u00e9*.com\", verdict: allow}]\n",
    })
    void oddInputIsAProblem(String yaml) {
        ReadResult r = PolicyReader.read("odd.yaml", yaml);
        assertThat(r.valid()).as("%s", r.problems()).isFalse();
        assertThat(r.policy()).isNull();
        assertThat(r.problems()).allSatisfy(p -> assertThat(p.code()).isNotEqualTo("internal"));
    }
}

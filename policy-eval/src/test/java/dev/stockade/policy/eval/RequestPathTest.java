package dev.stockade.policy.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.eval.internal.PathCheck;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one rule of what a request path is (docs/semantics.md, "What a request path is"). */
class RequestPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"/repos/..;/user", "/repos/x/..;/..;/user", "/repos/.;/..;/user", "/repos/..;x=1/user",
        "/a/../b", "/a/./b", "/a/..", "/a/%2E%2e/b", "/a%2fb", "/a%5cb", "/a\\b", "relative", "", "/a b",
        "/a//b", "//a", "/a/;x/b", "/a/%252e%252e/b", "/a/%25", "/a/%2", "/a/%zz", "/a/%00", "/a/%0a", "/a/%7f",
        "/a/%c0%ae%c0%ae/b", "/a/%e0%80%ae", "/a/%ff", "/a/%c3", "/a/\u00e9", "/a/\u0085"})
    void pathsOriginsCouldReadAsAnotherPathAreRefused(String path) {
        assertThat(RequestPath.of(path)).as(path).isInstanceOf(RequestPath.Refused.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/repos/a/pulls", "/a/.well-known/x", "/a/...", "/a/..b", "/a/b/", "/caf%C3%A9",
        "/a/%41", "/a/%3b", "/x/b~c", "/a;b", "/a/%ef%bc%8e"})
    void ordinaryPathsAreAdmitted(String path) {
        assertThat(RequestPath.of(path)).as(path).isInstanceOf(RequestPath.Readings.class);
    }

    @Test
    void pathParametersAreJudgedAsTheTextAndAsTomcatReadsIt() {
        assertThat(RequestPath.of("/files/secret;.txt"))
                .isEqualTo(new RequestPath.Readings(List.of("/files/secret;.txt", "/files/secret")));
        Glob txt = Glob.compile(GlobKind.PATH, "/files/*.txt").glob();
        assertThat(PathCheck.matches(txt, "/files/secret;.txt", PathCheck.readings("/files/secret;.txt"))).isFalse();
        Glob all = Glob.compile(GlobKind.PATH, "/files/**").glob();
        assertThat(PathCheck.matches(all, "/files/a;v=1/b", PathCheck.readings("/files/a;v=1/b"))).isTrue();
        assertThat(PathCheck.matches(all, "/files/..;/etc", PathCheck.readings("/files/..;/etc"))).isFalse();
    }

    @Test
    void anOrdinaryPathIsReadOnceWithoutAllocating() {
        assertThat(PathCheck.readings("/repos/octocat/hello-world/pulls")).isNull();
    }
}

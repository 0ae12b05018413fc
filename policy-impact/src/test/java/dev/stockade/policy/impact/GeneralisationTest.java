package dev.stockade.policy.impact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The two generalisation rules on hand-picked inputs; the conformance folder {@code suggest/} pins the rest. */
class GeneralisationTest {
    @Test
    void aBusyFolderBecomesAPrefixWithoutWideningItsParent() {
        List<String> globs = PathGeneralisation.generalise(List.of("/a/b/1", "/a/b/2", "/a/b/3", "/a/c", "/a/b"), 3);
        // `/a/b/**` stands for one rule under `/a/`, beside `/a/b` and `/a/c`: three, so `/a/` widens too at 3
        assertThat(globs).containsExactly("/a/**");
        assertThat(PathGeneralisation.generalise(List.of("/a/b/1", "/a/b/2", "/a/b/3", "/a/c"), 3))
                .containsExactly("/a/b/**", "/a/c");
    }

    @Test
    void theRootIsNeverGeneralised() {
        assertThat(PathGeneralisation.generalise(List.of("/a", "/b", "/c", "/d", "/"), 2))
                .containsExactly("/", "/a", "/b", "/c", "/d");
    }

    @Test
    void pathsAGlobCannotNameExactlyAreNotRepresentable() {
        assertThat(PathGeneralisation.representable("/repos/acme")).isTrue();
        assertThat(PathGeneralisation.representable("/a*b")).isFalse();
        assertThat(PathGeneralisation.representable("/a/../b")).isFalse();
        assertThat(PathGeneralisation.representable("/a;jsessionid=1")).isFalse();
        assertThat(PathGeneralisation.representable("/a b")).isFalse();
    }

    @Test
    void theWildcardSitsAtTheLongestSharedSuffixNeverAboveTheRegistrableDomain() {
        assertThat(HostGeneralisation.wildcards(List.of("a.eu.x.com", "b.eu.x.com", "c.eu.x.com", "x.com"), 3))
                .containsExactly(new HostGeneralisation.Wildcard("eu.x.com",
                        List.of("a.eu.x.com", "b.eu.x.com", "c.eu.x.com")));
        assertThat(HostGeneralisation.wildcards(List.of("a.eu.x.com", "b.us.x.com", "c.x.com"), 3))
                .extracting(HostGeneralisation.Wildcard::pattern).containsExactly("*.x.com");
    }

    @Test
    void registrableDomainsOfDifferentOwnersUnderOneSuffixAreNeverJoined() {
        assertThat(HostGeneralisation.wildcards(List.of("one.com", "two.com", "three.com"), 2)).isEmpty();
        assertThat(HostGeneralisation.wildcards(List.of("alice.github.io", "bob.github.io", "carol.github.io"), 2))
                .isEmpty();
        assertThat(HostGeneralisation.wildcards(List.of("a.co.uk", "b.co.uk", "c.co.uk"), 2)).isEmpty();
        assertThat(HostGeneralisation.registrable("www.example.co.uk")).contains("example.co.uk");
    }
}

package dev.stockade.policy.compiler;

import static dev.stockade.policy.compiler.Policies.allow;
import static dev.stockade.policy.compiler.Policies.callers;
import static dev.stockade.policy.compiler.Policies.deny;
import static dev.stockade.policy.compiler.Policies.direct;
import static dev.stockade.policy.compiler.Policies.get;
import static dev.stockade.policy.compiler.Policies.policy;
import static dev.stockade.policy.compiler.Policies.scheme;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.eval.CompileOptions;
import dev.stockade.policy.eval.Decision;
import dev.stockade.policy.eval.DecisionProgram;
import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.eval.ReasonCode;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code host:port} pattern rules of docs/semantics.md, "Ports", with the reason of each denial. */
class PortRulesTest {

    private static DecisionProgram program(List<Policy> ceiling, Policy... grants) {
        return PolicyCompiler.compile(Resolver.resolve(InstallFacts.defaults(), ceiling, List.of(grants)),
                CompileOptions.defaults());
    }

    private static DecisionProgram program(Policy... grants) {
        return program(List.of(), grants);
    }

    private static EgressRequest connect(String host, int port) {
        return EgressRequest.connection("https", host, port, null, null);
    }

    @Test
    void aPatternWithAPortAdmitsThatPortOnly() {
        DecisionProgram p = program(policy("p", allow("api.example.com:8443")));
        assertThat(p.decide(get("https://api.example.com:8443/v1")).allowed()).isTrue();
        assertThat(p.decide(get("http://api.example.com:8443/v1")).allowed()).isTrue(); // whatever the scheme
        assertThat(p.decideConnection(connect("api.example.com", 8443)).allowed()).isTrue();
        Decision other = p.decide(get("https://api.example.com/v1"));
        assertThat(other.reason()).isEqualTo(ReasonCode.PORT_NOT_ALLOWED);
        assertThat(other.policy()).isEqualTo("p");
        assertThat(other.entryIndex()).isZero();
        assertThat(other.detail()).contains("port 8443 only");
        assertThat(p.decideConnection(connect("api.example.com", 22)).reason()).isEqualTo(ReasonCode.PORT_NOT_ALLOWED);
        assertThat(p.decide(get("https://www.example.com:8443/")).reason()).isEqualTo(ReasonCode.DEFAULT_DENY);
    }

    @Test
    void anotherPortIsNoMatchAndFallsThroughToALaterEntry() {
        DecisionProgram p = program(policy("p", callers("api.example.com:8443", "/usr/bin/git"),
                deny("*.example.com:22"), direct("*.example.com")));
        assertThat(p.decide(get("https://api.example.com:8443/")).reason()).isEqualTo(ReasonCode.CALLER_NOT_LISTED);
        Decision later = p.decide(get("https://api.example.com/"));
        assertThat(later.allowed()).isTrue();
        assertThat(later.entryIndex()).isEqualTo(2);
        assertThat(later.transport()).isEqualTo(Transport.DIRECT);
        assertThat(p.decideConnection(connect("api.example.com", 22)).reason()).isEqualTo(ReasonCode.ENTRY_DENY);
        assertThat(p.decideConnection(connect("www.example.com", 22)).entryIndex()).isEqualTo(1);
    }

    @Test
    void theNamedPortWinsOverTheSchemeWhichIsStillChecked() {
        DecisionProgram p = program(policy("p", scheme("api.example.com:8443", "https"), scheme("web.example.com",
                "https")));
        assertThat(p.decide(get("https://api.example.com:8443/")).allowed()).isTrue();
        assertThat(p.decide(get("http://api.example.com:8443/")).reason()).isEqualTo(ReasonCode.SCHEME_MISMATCH);
        assertThat(p.decide(get("https://api.example.com/")).reason()).isEqualTo(ReasonCode.PORT_NOT_ALLOWED);
        // an entry without a port keeps today's rule: its scheme's default port
        assertThat(p.decide(get("https://web.example.com:8443/")).reason()).isEqualTo(ReasonCode.SCHEME_MISMATCH);
    }

    @Test
    void twoPortsOfOneHostAreTwoEntriesAndThePortlessOneTakesTheRest() {
        DecisionProgram p = program(policy("p", direct("api.example.com:8443"), allow("api.example.com:9000"),
                allow("api.example.com")));
        assertThat(p.decide(get("https://api.example.com:8443/")).transport()).isEqualTo(Transport.DIRECT);
        assertThat(p.decide(get("https://api.example.com:9000/")).entryIndex()).isEqualTo(1);
        assertThat(p.decide(get("https://api.example.com:22/")).entryIndex()).isEqualTo(2);
        // first match, as everywhere: a portless entry above a ported one of the same host takes its port too
        DecisionProgram shadowed = program(policy("p", allow("api.example.com"), direct("api.example.com:8443")));
        assertThat(shadowed.decide(get("https://api.example.com:8443/")).entryIndex()).isZero();
    }

    @Test
    void bracketedIpv6LiteralsWithAPort() {
        DecisionProgram p = program(policy("p", allow("[2001:db8::1]:8443"), allow("2001:db8::2")));
        assertThat(p.decideConnection(connect("[2001:db8::1]", 8443)).allowed()).isTrue();
        assertThat(p.decideConnection(connect("2001:DB8:0::1", 8443)).allowed()).isTrue();
        assertThat(p.decideConnection(connect("[2001:db8::1]", 443)).reason()).isEqualTo(ReasonCode.PORT_NOT_ALLOWED);
        assertThat(p.decideConnection(connect("[2001:db8::2]", 22)).allowed()).isTrue(); // bare: the address, any port
        assertThat(p.decideConnection(connect("[2001:db8::3]", 443)).reason()).isEqualTo(ReasonCode.DEFAULT_DENY);
    }

    @Test
    void anIpv6LiteralOnAPortIsNotTheBareAddressItsTextResembles() {
        // `[2001:db8::1]:8443` and the address `2001:db8::1:8443` must stay apart in resolution's lookups
        DecisionProgram p = program(policy("p", Verdict.ALLOW, allow("[2001:db8::1]:8443"), deny("2001:db8::1:8443")));
        assertThat(p.decideConnection(connect("[2001:db8::1:8443]", 443)).reason()).isEqualTo(ReasonCode.ENTRY_DENY);
        assertThat(p.decideConnection(connect("[2001:db8::1]", 8443)).reason()).isEqualTo(ReasonCode.ENTRY_ALLOW);
    }

    @Test
    void aCeilingOnOnePortClipsTheOtherPorts() {
        Policy ceiling = policy("org", allow("*.example.com:443"));
        DecisionProgram p = program(List.of(ceiling), policy("p", allow("api.example.com")));
        assertThat(p.decide(get("https://api.example.com/")).allowed()).isTrue();
        assertThat(p.decide(get("https://api.example.com:8443/")).reason()).isEqualTo(ReasonCode.CEILING_CLIPPED);
        DecisionProgram grantPort = program(List.of(policy("org", allow("*.example.com"))),
                policy("p", allow("api.example.com:8443")));
        assertThat(grantPort.decide(get("https://api.example.com:8443/")).allowed()).isTrue();
        assertThat(grantPort.decide(get("https://api.example.com/")).allowed()).isFalse();
    }

    @Test
    void underAnAllowingDefaultAnotherPortIsAllowedByTheDefault() {
        DecisionProgram p = program(policy("p", Verdict.ALLOW, deny("ssh.example.com:22")));
        assertThat(p.decideConnection(connect("ssh.example.com", 22)).reason()).isEqualTo(ReasonCode.ENTRY_DENY);
        assertThat(p.decideConnection(connect("ssh.example.com", 443)).reason()).isEqualTo(ReasonCode.DEFAULT_ALLOW);
    }

    @Test
    void theMemoKeepsPortsApart() {
        DecisionProgram p = program(policy("p", allow("api.example.com:8443")));
        for (int i = 0; i < 3; i++) { // the host memo answers the later rounds
            assertThat(p.decideConnection(connect("api.example.com", 8443)).allowed()).isTrue();
            assertThat(p.decideConnection(connect("api.example.com", 443)).allowed()).isFalse();
        }
    }
}

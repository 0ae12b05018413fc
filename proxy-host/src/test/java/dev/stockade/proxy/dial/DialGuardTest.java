package dev.stockade.proxy.dial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DialGuardTest {
    private final DialGuard strict = new DialGuard(false, false, List.of("203.0.113.0/24"), Map.of());

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.255.0.9", "::1", "0.0.0.0", "::", "169.254.169.254", "fe80::1",
            "224.0.0.1", "ff02::1", "255.255.255.255", "10.0.0.1", "172.16.5.4", "192.168.1.1", "100.64.0.1",
            "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::a9fe:a9fe", "203.0.113.7",
            "::ffff:203.0.113.7", "240.0.0.1"})
    void forbiddenAddresses(String literal) throws Exception {
        assertThat(strict.forbidden(InetAddress.getByName(literal))).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.215.14", "2606:4700::6810:85e5", "8.8.8.8", "172.32.0.1"})
    void publicAddressesMayBeDialed(String literal) throws Exception {
        assertThat(strict.forbidden(InetAddress.getByName(literal))).isNull();
    }

    @Test
    void privateRangesAreAnOptOut() throws Exception {
        DialGuard open = new DialGuard(false, true, List.of(), Map.of());
        assertThat(open.forbidden(InetAddress.getByName("10.0.0.1"))).isNull();
        assertThat(open.forbidden(InetAddress.getByName("127.0.0.1"))).isNotNull();
        assertThat(open.forbidden(InetAddress.getByName("169.254.169.254"))).isNotNull();
    }

    @Test
    void privateRangesCanBeOptedOutPerHost() {
        DialGuard g = new DialGuard(false, false, List.of("git.corp.test", "*.svc.corp.test"), List.of("10.9.0.0/16"),
                Map.of("git.corp.test", "10.1.2.3", "api.svc.corp.test", "fd00::7", "svc.corp.test", "10.1.2.4",
                        "other.test", "10.1.2.3", "meta.svc.corp.test", "169.254.169.254",
                        "lo.svc.corp.test", "127.0.0.1", "denied.svc.corp.test", "10.9.0.1"));
        assertThat(g.check("git.corp.test")).isEqualTo(new DialGuard.Allowed(addr("10.1.2.3")));
        assertThat(g.check("api.svc.corp.test")).isEqualTo(new DialGuard.Allowed(addr("fd00::7")));
        assertThat(g.check("svc.corp.test")).as("*. needs a label in front").isInstanceOf(DialGuard.Refused.class);
        assertThat(g.check("other.test")).as("the same address, another name").isInstanceOf(DialGuard.Refused.class);
        assertThat(g.check("10.1.2.3")).as("an address never matches a host pattern")
                .isInstanceOf(DialGuard.Refused.class);
        assertThat(g.check("meta.svc.corp.test")).as("only private ranges open").isInstanceOf(DialGuard.Refused.class);
        assertThat(g.check("lo.svc.corp.test")).isInstanceOf(DialGuard.Refused.class);
        assertThat(g.check("denied.svc.corp.test")).as("--deny-cidr still wins")
                .isInstanceOf(DialGuard.Refused.class);
        assertThat(g.forbidden(addr("10.1.2.3"))).as("an address alone: the install's rule").isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "10.1.2.3", "[fd00::1]", "fd00::1", "a..b", "exa mple.com"})
    void aPrivateHostMustBeADomainPattern(String pattern) {
        assertThat(DialGuard.privateHostError(pattern)).isNotNull();
        assertThatThrownBy(() -> new DialGuard(false, false, List.of(pattern), List.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unsafeLoopbackSettingOpensLoopbackOnly() throws Exception {
        DialGuard unsafe = new DialGuard(true, false, List.of(), Map.of());
        assertThat(unsafe.forbidden(InetAddress.getByName("127.0.0.1"))).isNull();
        assertThat(unsafe.forbidden(InetAddress.getByName("169.254.169.254"))).isNotNull();
        assertThat(unsafe.forbidden(InetAddress.getByName("0.0.0.0"))).isNotNull();
    }

    @Test
    void checkReturnsTheAddressItCheckedAndOverridesNeverFallBackToDns() {
        DialGuard g = new DialGuard(false, false, List.of(), Map.of("a.test", "93.184.215.14", "b.test", "nonsense"));
        assertThat(g.check("a.test")).isEqualTo(new DialGuard.Allowed(addr("93.184.215.14")));
        assertThat(g.check("b.test")).isInstanceOf(DialGuard.Refused.class);
        assertThat(g.check("127.0.0.1")).isInstanceOf(DialGuard.Refused.class);
    }

    @Test
    void withoutALookupOnlyLiteralsOverridesAndNamesResolvedLatelyAreKnown() {
        DialGuard g = new DialGuard(true, false, List.of(), Map.of("a.test", "93.184.215.14"));
        assertThat(g.checkWithoutLookup("a.test")).isEqualTo(new DialGuard.Allowed(addr("93.184.215.14")));
        assertThat(g.checkWithoutLookup("169.254.169.254")).isInstanceOf(DialGuard.Refused.class);
        assertThat(g.checkWithoutLookup("localhost")).as("never resolved: only a lookup can tell").isNull();

        DialGuard.Outcome looked = g.check("localhost"); // the real resolver (/etc/hosts), loopback allowed here
        assertThat(looked).isInstanceOf(DialGuard.Allowed.class);
        assertThat(g.checkWithoutLookup("localhost")).isEqualTo(looked);
        assertThat(strict.checkWithoutLookup("localhost")).as("per guard").isNull();
        assertThat(strict.check("localhost")).as("the same answer is still judged by each guard")
                .isInstanceOf(DialGuard.Refused.class);
        assertThat(strict.checkWithoutLookup("localhost")).isInstanceOf(DialGuard.Refused.class);
    }

    @Test
    void badCidrIsRefused() {
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/33")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Cidr.parse("example.com/8")).isInstanceOf(IllegalArgumentException.class);
    }

    private static InetAddress addr(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

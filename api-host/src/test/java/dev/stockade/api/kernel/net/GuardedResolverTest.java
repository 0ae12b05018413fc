package dev.stockade.api.kernel.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.proxy.dial.DialGuard;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The platform's outbound clients read a host by the core's grammar before the dial guard judges it. */
class GuardedResolverTest {
    private final GuardedResolver production = new GuardedResolver(new DialGuard(false, false, List.of(), List.of(), Map.of()));
    private final GuardedResolver loopbackAllowed = new GuardedResolver(new DialGuard(true, false, List.of(), List.of(), Map.of()));

    @ParameterizedTest
    @ValueSource(strings = {"2130706433", "0x7f000001", "127.1", "[::ffff:127.0.0.1]", "::ffff:7f00:1", "[::1]",
            "0xa9fea9fe", "169.254.169.254", "LOCALHOST."})
    void loopbackAndMetadataInAnyFormAreRefused(String host) {
        assertThatThrownBy(() -> production.resolve(host)).as(host).isInstanceOf(GuardedResolver.Refused.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2130706433", "0x7f000001", "127.1", "[::ffff:127.0.0.1]"})
    void anAddressInAnotherFormIsDialedAsTheAddressItIs(String host) throws Exception {
        assertThat(loopbackAllowed.resolve(host)).containsExactly(InetAddress.getByName("127.0.0.1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0177.0.0.1", "allowed.example..", "a b.example", ""})
    void aFormReadDifferentlyByLibcAndJavaOrNoHostAtAllIsRefusedWhateverTheFlags(String host) {
        // Java would read 0177.0.0.1 as 177.0.0.1 and libc as 127.0.0.1: neither reading is dialed
        assertThatThrownBy(() -> loopbackAllowed.resolve(host)).as(host).isInstanceOf(GuardedResolver.Refused.class)
                .hasMessageContaining("is not a host");
    }
}

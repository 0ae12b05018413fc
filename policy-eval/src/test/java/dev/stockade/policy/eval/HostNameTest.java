package dev.stockade.policy.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one host grammar (docs/semantics.md, "Hosts"). */
class HostNameTest {

    @ParameterizedTest
    @CsvSource({
        "API.Example.COM., api.example.com, NAME",
        "a_b.example, a_b.example, NAME",
        "bücher.example, xn--bcher-kva.example, NAME",
        "straße.example, xn--strae-oqa.example, NAME",
        "XN--STRAE-OQA.example, xn--strae-oqa.example, NAME",
        "10.0.0.1, 10.0.0.1, IPV4",
        "2130706433, 127.0.0.1, IPV4",
        "0x7f000001, 127.0.0.1, IPV4",
        "0x7F.1, 127.0.0.1, IPV4",
        "127.1, 127.0.0.1, IPV4",
        "127.0.1, 127.0.0.1, IPV4",
        "0, 0.0.0.0, IPV4",
        "10.0.0.1., 10.0.0.1, IPV4",
        "[::1], ::1, IPV6",
        "[0:0:0:0:0:0:0:1], ::1, IPV6",
        "[2001:DB8:0:0:0:0:0:1], 2001:db8::1, IPV6",
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1, IPV6",
        "[::ffff:127.0.0.1], 127.0.0.1, IPV4",
        "[::ffff:7f00:1], 127.0.0.1, IPV4",
        "[::127.0.0.1], 127.0.0.1, IPV4",
        "[64:ff9b::a9fe:a9fe], 169.254.169.254, IPV4",
        "\uff11\uff12\uff17.\uff11, 127.0.0.1, IPV4",
        "\u00ad8, 0.0.0.8, IPV4",
    })
    void normalForms(String text, String normal, HostName.Kind kind) {
        assertThat(HostName.parse(text)).isEqualTo(new HostName(normal, kind));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "allowed.com..", "a..b", ".a", "a b.com", "a/b", "0177.0.0.1", "127.00.0.1",
        "010.1", "256.0.0.1", "1.2.3.4.5", "4294967296", "0x", "a.123", "example.0x1g", "[::1", "[fe80::1%eth0]",
        "[::1]x", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.com", "ab--c\u00e9.example", "a\u200db.example"})
    void refusals(String text) {
        assertThat(HostName.parse(text)).as(text).isInstanceOf(HostName.Refused.class);
    }
}

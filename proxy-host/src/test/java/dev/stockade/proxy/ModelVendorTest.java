package dev.stockade.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The list of model providers' API hosts: who is recognised, and hostile spellings that must or must not be. */
class ModelVendorTest {

    @ParameterizedTest
    @CsvSource({
        "api.openai.com, openai",
        "my-resource.openai.azure.com, azure",
        "my-resource.services.ai.azure.com, azure",
        "my-resource.cognitiveservices.azure.com, azure",
        "bedrock-runtime.us-east-1.amazonaws.com, bedrock",
        "bedrock-runtime.us-gov-west-1.amazonaws.com, bedrock",
        "bedrock-runtime-fips.us-east-1.amazonaws.com, bedrock",
        "bedrock-mantle.eu-central-1.api.aws, bedrock-mantle",
        "openrouter.ai, openrouter",
        "api.anthropic.com, anthropic",
        "generativelanguage.googleapis.com, google",
        "us-central1-aiplatform.googleapis.com, google",
        "api.mistral.ai, mistral",
        "api.groq.com, groq",
        "api.x.ai, xai",
    })
    void eachVendorsApiHostIsRecognisedUnderItsWireName(String host, String wire) {
        assertThat(ModelVendor.ofHost(host)).map(ModelVendor::wire).contains(wire);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "API.OpenAI.COM",                 // case
        "api.openai.com.",                // one trailing dot: the same name to DNS
        "api.openai.com:443",             // an authority: the port says nothing about whose API it is
        "api.openai.com.:8443",
        "ａｐｉ.ｏｐｅｎａｉ.ｃｏｍ",        // full-width letters: IDNA (UTS #46) maps them to api.openai.com
        "api\u3002openai\u3002com",       // ideographic full stops are dots to IDNA
    })
    void spellingsThatReachTheSameHostAreRecognised(String host) {
        assertThat(ModelVendor.ofHost(host)).contains(ModelVendor.OPENAI);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "api.openai.com.evil.test",       // the vendor's name as a prefix of someone else's
        "evilapi.openai.com",             // an exact host is exact
        "openai.com",
        "openai.azure.com",               // a wildcard label covers one or more labels, never zero
        "x.openai.azure.com.evil.test",
        "bedrock-runtime.amazonaws.com",  // no region
        "bedrock-runtime.a.b-c.amazonaws.com",
        "bedrock.us-east-1.amazonaws.com", // the control plane, not inference
        "api.openai.com..",               // an empty label is no host
        ".api.openai.com",
        "\u0430pi.openai.com",            // a Cyrillic a: another name (xn--pi-7ld...), not OpenAI's
        "api.openai.com/v1",
        "user@api.openai.com",
        "104.18.6.192",                   // an address names no vendor, whoever serves there
        "[2606:4700::6812:7c0]:443",
        "-",
        "",
    })
    void lookalikesAndNonHostsAreNotRecognised(String host) {
        assertThat(ModelVendor.ofHost(host)).isEmpty();
    }

    @Test
    void nullAndOverlongInputAreNoVendors() {
        assertThat(ModelVendor.ofHost(null)).isEmpty();
        assertThat(ModelVendor.ofHost("a.".repeat(100_000) + "api.openai.com")).isEmpty();
    }

    @Test
    void everyVendorHasHostsAndTheManagedBackendsUseTheSpecsProviderValues() {
        for (ModelVendor v : ModelVendor.values()) {
            assertThat(v.hostPatterns()).as(v.name()).isNotEmpty();
        }
        assertThat(ModelVendor.AZURE.wire()).isEqualTo("azure");
        assertThat(ModelVendor.BEDROCK.wire()).isEqualTo("bedrock");
        assertThat(ModelVendor.BEDROCK_MANTLE.wire()).isEqualTo("bedrock-mantle");
        assertThat(ModelVendor.OPENAI.wire()).isEqualTo("openai");
        assertThat(ModelVendor.OPENROUTER.wire()).isEqualTo("openrouter");
    }

    @Test
    void noPatternEndsInAWildcardSoAForeignSuffixNeverKeepsAMatch() {
        java.util.Random random = new java.util.Random(31);
        for (int i = 0; i < 2000; i++) {
            String label = label(random);
            assertThat(ModelVendor.ofHost(label + ".api.openai.com")).as(label).isEmpty();
            assertThat(ModelVendor.ofHost(label + ".openai.azure.com")).as(label).contains(ModelVendor.AZURE);
            assertThat(ModelVendor.ofHost(label + ".openai.azure.com." + label)).as(label).isEmpty();
        }
        for (ModelVendor v : ModelVendor.values()) {
            for (String p : v.hostPatterns()) {
                String host = p.replace("*", "x-1");
                assertThat(ModelVendor.ofHost(host)).as(host).contains(v);
                assertThat(ModelVendor.ofHost(host + ".example.invalid")).as(host).isEmpty();
            }
        }
    }

    /** A random valid DNS label (letters, digits, inner dashes; never an IDNA `xn--` prefix). */
    private static String label(java.util.Random random) {
        String chars = "abcdefghijklmnopqrstuvwxyz0123456789-";
        StringBuilder b = new StringBuilder().append((char) ('a' + random.nextInt(26)));
        int length = random.nextInt(40);
        for (int i = 0; i < length; i++) {
            char c = chars.charAt(random.nextInt(chars.length()));
            b.append(c == '-' && (i == 1 || i == 2) ? 'q' : c);
        }
        return b.append((char) ('a' + random.nextInt(26))).toString();
    }
}

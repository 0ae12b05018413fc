package dev.stockade.policy.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An over-long target or URL is refused naming the limit it exceeded and its length, never its text. */
class RequestTargetLimitTest {

    @Test
    void aUrlOverTheLimitNamesTheLimitAndItsLength() {
        String url = "https://example.com/" + "a".repeat(125_000);
        assertThat(RequestTarget.parseUrl(url)).isEqualTo(new RequestTarget.Refused(
                "the URL is 125020 characters long, over the limit of " + RequestTarget.MAX_LENGTH));
    }

    @Test
    void anEmptyUrlIsCalledEmpty() {
        assertThat(RequestTarget.parseUrl("")).isEqualTo(new RequestTarget.Refused("the URL is empty"));
        assertThat(RequestTarget.parseUrl(null)).isEqualTo(new RequestTarget.Refused("the URL is empty"));
    }

    @Test
    void targetsAndAuthoritiesNameTheirLimitsToo() {
        assertThat(RequestTarget.parse("/" + "a".repeat(RequestTarget.MAX_LENGTH), false)).isEqualTo(
                new RequestTarget.Refused("the request target is 65537 characters long, over the limit of 65536"));
        assertThat(RequestTarget.authority("a".repeat(301), 443)).isEqualTo(
                new RequestTarget.Refused("the authority is 301 characters long, over the limit of 300"));
        assertThat(RequestTarget.authority("", 443)).isEqualTo(new RequestTarget.Refused("the authority is empty"));
    }

    @Test
    void aUrlAtTheLimitIsRead() {
        String url = "https://example.com/" + "a".repeat(RequestTarget.MAX_LENGTH - 20);
        assertThat(RequestTarget.parseUrl(url)).isInstanceOf(RequestTarget.Absolute.class);
    }
}

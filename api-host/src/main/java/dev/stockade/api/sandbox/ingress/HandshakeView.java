package dev.stockade.api.sandbox.ingress;

import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpRequestWrapper;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.simple.SimpleHttpRequest;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.net.InetSocketAddress;

/**
 * A WebSocket handshake taken off the Netty pipeline, seen as the framework's request type, so that it is admitted
 * by the very code that admits every other ingress request ({@link IngressAuth}, {@link PortForwarder}'s headers).
 *
 * @param request the handshake: method, path, headers, cookies, the caller's address and whether it came over TLS
 * @param uri     the path and query to ask the sandbox for
 */
record HandshakeView(HttpRequest<?> request, String uri) {
    static HandshakeView of(io.netty.handler.codec.http.HttpRequest netty, InetSocketAddress remote, boolean secure) {
        // the simple request type, whatever HTTP client is on the class path (a client's request type may not carry cookies)
        MutableHttpRequest<Object> plain = new SimpleHttpRequest<>(HttpMethod.parse(netty.method().name()), netty.uri(),
                null);
        netty.headers().forEach(h -> plain.header(h.getKey(), h.getValue()));
        for (String header : netty.headers().getAll("Cookie")) {
            ServerCookieDecoder.LAX.decode(header).forEach(c -> plain.cookie(Cookie.of(c.name(), c.value())));
        }
        HttpRequest<?> seen = new HttpRequestWrapper<Object>(plain) {
            @Override
            public InetSocketAddress getRemoteAddress() {
                return remote;
            }

            @Override
            public boolean isSecure() {
                return secure;
            }
        };
        return new HandshakeView(seen, netty.uri());
    }
}

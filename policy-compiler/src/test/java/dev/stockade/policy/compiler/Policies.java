package dev.stockade.policy.compiler;

import dev.stockade.policy.eval.EgressRequest;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.List;
import java.util.Map;

/** Small builders for tests. */
final class Policies {
    private Policies() {
    }

    static Policy policy(String name, DomainEntry... entries) {
        return Policy.named(name).withAllowedDomains(List.of(entries));
    }

    static Policy policy(String name, Verdict defaultVerdict, DomainEntry... entries) {
        return new Policy(name, null, defaultVerdict, null, List.of(entries), null, null, null, null, null, null);
    }

    static DomainEntry allow(String pattern) {
        return DomainEntry.allow(pattern);
    }

    static DomainEntry direct(String pattern) {
        return new DomainEntry(pattern, Verdict.ALLOW, Transport.DIRECT, null, null, null, null);
    }

    static DomainEntry deny(String pattern) {
        return DomainEntry.deny(pattern);
    }

    static DomainEntry callers(String pattern, String... binaries) {
        return DomainEntry.allow(pattern).withBinaries(List.of(binaries));
    }

    static DomainEntry rules(String pattern, Rule... rules) {
        return DomainEntry.allow(pattern).withRules(List.of(rules));
    }

    static DomainEntry scheme(String pattern, String scheme) {
        return new DomainEntry(pattern, Verdict.ALLOW, Transport.UPSTREAM, scheme, null, null, null);
    }

    static EgressRequest get(String url) {
        return request("GET", url, null);
    }

    static EgressRequest request(String method, String url, String caller) {
        java.net.URI u = java.net.URI.create(url);
        int port = u.getPort() > 0 ? u.getPort() : (u.getScheme().equals("https") ? 443 : 80);
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        return new EgressRequest(u.getScheme(), u.getHost(), port, null, caller, method, path, u.getRawQuery(),
                Map.of(), null, false);
    }

    static EgressRequest connection(String host, String caller) {
        return EgressRequest.connection("https", host, 443, host, caller);
    }
}

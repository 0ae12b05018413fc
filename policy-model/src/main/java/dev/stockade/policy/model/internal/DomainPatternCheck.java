package dev.stockade.policy.model.internal;

import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobError;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import dev.stockade.policy.glob.HostPort;
import dev.stockade.policy.glob.IpLiteral;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import dev.stockade.policy.text.Quoted;
import java.util.List;

/**
 * Validates one domain pattern: a domain glob or an IP literal, optionally followed by {@code :PORT}
 * (docs/semantics.md, "Ports"). Positions point inside the pattern: at the port for {@code invalid-port},
 * at the offending character for {@code glob-syntax}.
 */
final class DomainPatternCheck {
    private DomainPatternCheck() {
    }

    static void check(String at, String pattern, Locator locator, List<Problem> out) {
        Problem url = PatternAsUrl.problem(at, pattern);
        if (url != null) {
            out.add(url.at(locator.inside(at, 0))); // the port and glob checks would only describe the same mistake worse
            return;
        }
        HostPort split = HostPort.split(pattern);
        if (split.error() != null) {
            out.add(Problem.error(ProblemCode.INVALID_PORT, at, split.error(),
                    "write a port from 1 to 65535 without sign or leading zeros, as in `api.example.com:8443`")
                    .at(locator.inside(at, split.portOffset())));
        }
        String host = split.host();
        if (IpLiteral.isIpv6(host)) {
            if (DomainPattern.parse(host).kind() == DomainPattern.Kind.INVALID) {
                out.add(Problem.error(ProblemCode.GLOB_SYNTAX, at, Quoted.input(host) + " is not an IPv6 literal",
                        "write an IPv6 address, in brackets when a port follows: `[2001:db8::1]:8443`")
                        .at(locator.at(at)));
            }
            return;
        }
        GlobResult r = Glob.compile(GlobKind.DOMAIN, host);
        for (GlobError e : r.errors()) {
            out.add(Problem.error(ProblemCode.GLOB_SYNTAX, at, e.message(), null).at(locator.inside(at, e.offset())));
        }
    }
}

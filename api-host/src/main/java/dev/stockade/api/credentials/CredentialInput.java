package dev.stockade.api.credentials;

import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.FieldError;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.policy.glob.DomainPattern;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import dev.stockade.policy.glob.HostPort;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A credential as written (create and update bodies) and its checks. Problems never quote the secret: a detail names
 * the field and the rule only.
 *
 * @param name         unique per project; what policies' {@code credentials[].credentialName} refer to
 * @param secret       the secret; never returned
 * @param domains      domain patterns of the policy syntax, optionally {@code pattern:port} (443 when none)
 * @param headerFormat {@code Name: value} with {@code {secret}} where the secret goes, e.g.
 *                     {@code Authorization: Bearer {secret}}, or a Basic-auth literal such as
 *                     {@code Authorization: Basic {secret}} with the base64 of {@code user:password} as the secret
 */
@Introspected
public record CredentialInput(@Nullable String name, @Nullable String secret, @Nullable List<String> domains,
                              @Nullable String headerFormat) {
    static final int MAX_SECRET = 8192;
    static final int MAX_DOMAINS = 50;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}");

    @Override
    public String toString() {
        return "CredentialInput[" + name + ", " + domains + "]"; // never the secret
    }

    /** Checks a create body: every field but {@code headerFormat} required. */
    void checkCreate() {
        List<FieldError> errors = new ArrayList<>();
        if (name == null) {
            errors.add(new FieldError("/name", "required", "`name` is required"));
        }
        if (secret == null) {
            errors.add(new FieldError("/secret", "required", "`secret` is required"));
        }
        if (domains == null) {
            errors.add(new FieldError("/domains", "required", "`domains` is required"));
        }
        check(errors);
    }

    /** Checks an update body: what is present must be valid; {@code name} cannot change. */
    void checkUpdate() {
        List<FieldError> errors = new ArrayList<>();
        if (name != null) {
            errors.add(new FieldError("/name", "immutable", "a credential's name cannot change; create another"));
        }
        check(errors);
    }

    private void check(List<FieldError> errors) {
        if (name != null && !NAME.matcher(name).matches()) {
            errors.add(new FieldError("/name", "pattern", "`name` must be 1 to 100 letters, digits, `.`, `_` or `-`,"
                    + " starting with a letter or digit"));
        }
        if (secret != null && (secret.isEmpty() || secret.length() > MAX_SECRET
                || secret.chars().anyMatch(Character::isISOControl))) {
            errors.add(new FieldError("/secret", "secret", "`secret` must be 1 to " + MAX_SECRET
                    + " characters without control characters"));
        }
        if (domains != null) {
            checkDomains(errors);
        }
        if (headerFormat != null) {
            checkHeader(errors);
        }
        if (!errors.isEmpty()) {
            String detail = errors.size() == 1 ? errors.get(0).detail() : errors.size() + " fields are invalid";
            throw new ApiProblem(ProblemCode.VALIDATION_FAILED, detail, errors);
        }
    }

    private void checkDomains(List<FieldError> errors) {
        if (domains.isEmpty() || domains.size() > MAX_DOMAINS) {
            errors.add(new FieldError("/domains", "size", "`domains` must list 1 to " + MAX_DOMAINS + " patterns"));
            return;
        }
        for (int i = 0; i < domains.size(); i++) {
            String d = domains.get(i);
            String reason = d == null ? "is null" : domainProblem(d);
            if (reason != null) {
                errors.add(new FieldError("/domains/" + i, "domain-pattern", "`domains/" + i + "` " + reason));
            }
        }
    }

    /** The proxy's reading of a credential domain: a domain pattern, optionally {@code :port}. */
    private static String domainProblem(String d) {
        HostPort split = HostPort.split(d); // the policies' own host:port grammar
        if (split.error() != null) {
            return "has a bad port: " + split.error();
        }
        if (split.host().equals("*")) {
            return "would send the secret to every host; name the hosts";
        }
        if (DomainPattern.parse(d).kind() != DomainPattern.Kind.INVALID) {
            return null; // exactly what the proxy's Credential accepts
        }
        GlobResult g = Glob.compile(GlobKind.DOMAIN, split.host());
        return "is not a domain pattern: " + (g.ok() || g.errors().isEmpty() ? "invalid" : g.errors().get(0).message());
    }

    private void checkHeader(List<FieldError> errors) {
        if (!headerFormatValid(headerFormat)) {
            errors.add(new FieldError("/headerFormat", "header-format", HEADER_FORMAT_RULE));
        }
    }

    /** The rule a header format breaks, as problems state it. */
    public static final String HEADER_FORMAT_RULE = "`headerFormat` must be `Name: value` with `{secret}` in the"
            + " value and no control characters";

    /** Whether {@code format} is {@code Name: value} with {@code {secret}} in the value (egress and connectors). */
    public static boolean headerFormatValid(String format) {
        int colon = format.indexOf(':');
        String headerName = colon > 0 ? format.substring(0, colon) : "";
        return HEADER_NAME.matcher(headerName).matches() && format.length() <= 1000
                && format.chars().noneMatch(Character::isISOControl) && format.substring(colon + 1).contains("{secret}");
    }
}

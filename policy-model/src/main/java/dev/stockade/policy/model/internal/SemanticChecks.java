package dev.stockade.policy.model.internal;

import dev.stockade.policy.text.Quoted;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobError;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import dev.stockade.policy.model.Provider;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layer two of validation: every rule of the spec that structure cannot express. Robust to trees that
 * failed the schema (a node of the wrong type is skipped here; the schema already reported it), so both
 * layers always run and report everything.
 */
public final class SemanticChecks {
    private final Locator locator;
    private final List<Problem> problems = new ArrayList<>();

    private SemanticChecks(Locator locator) {
        this.locator = locator;
    }

    /** The semantic problems of a policy tree, positioned through {@code locator}. */
    public static List<Problem> check(JsonNode root, Locator locator) {
        SemanticChecks c = new SemanticChecks(locator);
        if (root != null && root.isObject()) {
            c.policy(root);
        }
        return c.problems;
    }

    void error(ProblemCode code, String pointer, String message, String help) {
        problems.add(Problem.error(code, pointer, message, help).at(locator.at(pointer)));
    }

    private void warning(ProblemCode code, String pointer, String message, String help) {
        problems.add(Problem.warning(code, pointer, message, help).at(locator.at(pointer)));
    }

    static String text(JsonNode parent, String key) {
        JsonNode n = parent.get(key);
        return n != null && n.isTextual() ? n.textValue() : null;
    }

    static JsonNode array(JsonNode parent, String key) {
        JsonNode n = parent.get(key);
        return n != null && n.isArray() ? n : null;
    }

    private static JsonNode object(JsonNode parent, String key) {
        JsonNode n = parent.get(key);
        return n != null && n.isObject() ? n : null;
    }

    private void policy(JsonNode p) {
        String name = text(p, "name");
        if (name != null && TextRules.isBlank(name)) {
            error(ProblemCode.EMPTY_NAME, "/name", "policy name is empty", "give the policy a name unique in its scope");
        }
        JsonNode domains = array(p, "allowedDomains");
        if (domains != null) {
            for (int i = 0; i < domains.size(); i++) {
                if (domains.get(i).isObject()) {
                    domainEntry("/allowedDomains/" + i, domains.get(i));
                }
            }
        }
        JsonNode credentials = array(p, "credentials");
        if (credentials != null) {
            for (int i = 0; i < credentials.size(); i++) {
                JsonNode c = credentials.get(i);
                if (c.isObject()) {
                    envName("/credentials/" + i + "/envVarKey", text(c, "envVarKey"));
                    String credentialName = text(c, "credentialName");
                    if (credentialName != null && TextRules.isBlank(credentialName)) {
                        error(ProblemCode.EMPTY_VALUE, "/credentials/" + i + "/credentialName", "credential name is empty", null);
                    }
                }
            }
        }
        JsonNode connectors = array(p, "connectors");
        if (connectors != null) {
            for (int i = 0; i < connectors.size(); i++) {
                if (connectors.get(i).isObject()) {
                    connector("/connectors/" + i, connectors.get(i));
                }
            }
        }
        JsonNode integrations = array(p, "integrations");
        if (integrations != null) {
            for (int i = 0; i < integrations.size(); i++) {
                JsonNode n = integrations.get(i);
                String iname = n.isObject() ? text(n, "name") : null;
                if (iname != null && TextRules.isBlank(iname)) {
                    error(ProblemCode.EMPTY_VALUE, "/integrations/" + i + "/name", "integration name is empty", null);
                }
            }
        }
        JsonNode inference = object(p, "managedInference");
        if (inference != null) {
            managedInference(inference);
        }
        envMap("/env", object(p, "env"));
    }

    // ---- allowedDomains -------------------------------------------------------------------------

    private void domainEntry(String at, JsonNode e) {
        String pattern = text(e, "pattern");
        if (pattern != null) {
            DomainPatternCheck.check(at + "/pattern", pattern, locator, problems);
        }
        boolean deny = "deny".equals(text(e, "verdict"));
        if (deny && e.has("transport")) {
            warning(ProblemCode.TRANSPORT_ON_DENY, at + "/transport", "`transport` is ignored on a deny entry",
                    "remove it");
        }
        if (deny && e.has("scheme")) {
            warning(ProblemCode.SCHEME_ON_DENY, at + "/scheme", "`scheme` is ignored on a deny entry: it denies every scheme",
                    "remove it");
        }
        if (deny && e.has("rules")) {
            warning(ProblemCode.RULES_ON_DENY, at + "/rules", "`rules` are ignored on a deny entry: it denies every request",
                    "remove them, or make the entry an allow entry whose rules admit what should pass");
        }
        String scheme = text(e, "scheme");
        if (scheme != null && !isScheme(scheme)) {
            error(ProblemCode.INVALID_SCHEME, at + "/scheme", "scheme " + Quoted.input(scheme) + " is not a lower-case uri scheme",
                    "write for example `https`");
        }
        JsonNode binaries = array(e, "binaries");
        if (binaries != null) {
            binaries(at + "/binaries", binaries, deny);
        }
        JsonNode rules = array(e, "rules");
        if (rules != null) {
            if (rules.isEmpty()) {
                error(ProblemCode.EMPTY_RULES, at + "/rules", "rule list is empty",
                        "omit `rules` to allow every request to the domain, or add a rule");
            }
            for (int i = 0; i < rules.size(); i++) {
                if (rules.get(i).isObject()) {
                    rule(at + "/rules/" + i, rules.get(i));
                }
            }
        }
    }

    private static boolean isScheme(String s) {
        if (s.isEmpty() || s.charAt(0) < 'a' || s.charAt(0) > 'z') {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    private void binaries(String at, JsonNode binaries, boolean deny) {
        if (deny) {
            error(ProblemCode.FENCE_ON_DENY, at, "`binaries` is allowed only on an allow entry",
                    "remove `binaries` from the deny entry");
        }
        if (binaries.isEmpty()) {
            error(ProblemCode.EMPTY_BINARIES, at, "`binaries` is empty, so no caller could pass",
                    "list the callers, or omit `binaries` to match any caller");
        }
        for (int i = 0; i < binaries.size(); i++) {
            JsonNode b = binaries.get(i);
            if (!b.isTextual()) {
                continue;
            }
            String path = b.textValue();
            String ptr = at + "/" + i;
            if (TextRules.hasEdgeSpace(path) || TextRules.hasControl(path)) {
                error(ProblemCode.BINARY_WHITESPACE, ptr, "binaries entry " + Quoted.input(path) + " has leading or trailing whitespace"
                        + " or a control character", "use " + Quoted.input(TextRules.strip(path)));
            } else if (path.indexOf('*') >= 0 || path.indexOf('?') >= 0 || path.indexOf('[') >= 0) {
                error(ProblemCode.BINARY_GLOB, ptr, "binaries entry " + Quoted.input(path) + " is a glob; globs are not supported",
                        "name each binary separately");
            } else if (!path.startsWith("/")) {
                String base = path.isEmpty() ? "git" : path.substring(path.lastIndexOf('/') + 1);
                error(ProblemCode.BINARY_NOT_ABSOLUTE, ptr, "binaries entry " + Quoted.input(path) + " must be an absolute path",
                        "use " + Quoted.input("/usr/bin/" + base));
            }
        }
    }

    private void rule(String at, JsonNode r) {
        if (!r.has("method") && !r.has("path") && !r.has("graphql")) {
            error(ProblemCode.EMPTY_RULE, at, "rule has none of `method`, `path`, `graphql`",
                    "add at least one condition, or remove the rule");
        }
        String method = text(r, "method");
        if (method != null && !isMethod(method)) {
            error(ProblemCode.INVALID_METHOD, at + "/method", "method " + Quoted.input(method) + " is not an upper-case http method",
                    isMethod(method.strip().toUpperCase(java.util.Locale.ROOT))
                            ? "use " + Quoted.input(method.strip().toUpperCase(java.util.Locale.ROOT)) : "write for example `GET`");
        }
        String path = text(r, "path");
        if (path != null) {
            glob(GlobKind.PATH, at + "/path", path);
        }
        JsonNode graphql = object(r, "graphql");
        if (graphql != null) {
            new GraphqlChecks(this).fence(at + "/graphql", graphql);
        }
    }

    private static boolean isMethod(String m) {
        if (m.isEmpty() || m.length() > 32) {
            return false;
        }
        for (int i = 0; i < m.length(); i++) {
            char c = m.charAt(i);
            if (!(c >= 'A' && c <= 'Z')) {
                return false;
            }
        }
        return true;
    }

    // ---- connectors, inference, env -------------------------------------------------------------

    private void connector(String at, JsonNode c) {
        uuid(at + "/connectorId", text(c, "connectorId"));
        uuid(at + "/credentialId", text(c, "credentialId"));
        JsonNode tools = array(c, "allowedTools");
        if (tools == null) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode t = tools.get(i);
            if (!t.isTextual()) {
                continue;
            }
            String tool = t.textValue();
            String ptr = at + "/allowedTools/" + i;
            if (tool.indexOf('*') >= 0) {
                error(ProblemCode.TOOL_WILDCARD, ptr, "tool " + Quoted.input(tool) + " has a wildcard; tools are granted by exact name",
                        "name each tool; tools added upstream later are not granted until named");
            } else if (TextRules.isBlank(tool) || TextRules.hasEdgeSpace(tool) || TextRules.hasControl(tool)) {
                error(ProblemCode.INVALID_TOOL_NAME, ptr, "tool name " + Quoted.input(tool) + " is empty, has surrounding whitespace or"
                        + " a control character", null);
            } else if (!seen.add(tool)) {
                warning(ProblemCode.DUPLICATE_TOOL, ptr, "tool " + Quoted.input(tool) + " is listed more than once", "remove the repeat");
            }
        }
    }

    private void uuid(String at, String value) {
        if (value != null && !isUuid(value)) {
            error(ProblemCode.INVALID_UUID, at, Quoted.input(value) + " is not a uuid",
                    "write it as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hexadecimal");
        }
    }

    static boolean isUuid(String s) {
        if (s.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : !TextRules.isHex(c)) {
                return false;
            }
        }
        return true;
    }

    private void managedInference(JsonNode mi) {
        String provider = text(mi, "provider");
        String primary = provider == null ? Provider.BEDROCK.wire() : provider;
        JsonNode providers = array(mi, "providers");
        if (providers != null) {
            Set<String> seen = new HashSet<>();
            boolean hasPrimary = false;
            for (int i = 0; i < providers.size(); i++) {
                JsonNode n = providers.get(i);
                if (!n.isTextual()) {
                    continue;
                }
                if (!seen.add(n.textValue())) {
                    error(ProblemCode.DUPLICATE_PROVIDER, "/managedInference/providers/" + i,
                            "provider " + Quoted.input(n.textValue()) + " is listed more than once", "list each backend once");
                }
                hasPrimary |= n.textValue().equals(primary);
            }
            if (!hasPrimary && (provider == null || Provider.fromWire(provider) != null)) {
                error(ProblemCode.PRIMARY_PROVIDER_NOT_LISTED, "/managedInference/providers",
                        "`providers` does not include the primary provider " + Quoted.input(primary)
                                + (provider == null ? " (the default when `provider` is absent)" : ""),
                        "add " + Quoted.input(primary) + " to `providers` or set `provider` to one of them");
            }
        }
        envMap("/managedInference/env", object(mi, "env"));
    }

    private void envMap(String at, JsonNode env) {
        if (env == null) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = env.properties().iterator(); it.hasNext();) {
            String key = it.next().getKey();
            envName(at + "/" + TreeReader.escape(key), key);
        }
    }

    private void envName(String at, String name) {
        if (name == null) {
            return;
        }
        boolean ok = !name.isEmpty() && !TextRules.isDigit(name.charAt(0));
        for (int i = 0; ok && i < name.length(); i++) {
            char c = name.charAt(i);
            ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        }
        if (!ok) {
            error(ProblemCode.INVALID_ENV_NAME, at, Quoted.input(name) + " is not an environment variable name",
                    "use letters, digits and `_`, not starting with a digit");
        }
    }

    // ---- globs ----------------------------------------------------------------------------------

    Glob glob(GlobKind kind, String at, String text) {
        GlobResult r = Glob.compile(kind, text);
        for (GlobError e : r.errors()) {
            problems.add(Problem.error(ProblemCode.GLOB_SYNTAX, at, e.message(), null).at(locator.inside(at, e.offset())));
        }
        return r.glob();
    }
}

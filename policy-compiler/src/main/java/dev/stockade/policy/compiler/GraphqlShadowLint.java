package dev.stockade.policy.compiler;

import dev.stockade.policy.text.Quoted;
import dev.stockade.policy.glob.Glob;
import dev.stockade.policy.glob.GlobKind;
import dev.stockade.policy.glob.GlobResult;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemCode;
import dev.stockade.policy.model.Rule;
import java.util.List;
import java.util.Locale;

/**
 * Lint {@code graphql-rule-shadowed}: a graphql rule whose path a plain rule of the same entry also
 * admits on a case or trailing-slash variant ({@code /GRAPHQL}, {@code /graphql/}). Paths are matched
 * byte for byte, so the variant does not match the graphql rule and the plain rule admits it without
 * any fence, while many origins serve it as the GraphQL endpoint.
 */
final class GraphqlShadowLint {
    private GraphqlShadowLint() {
    }

    static void check(DomainEntry e, int entry, List<Problem> out) {
        List<Rule> rules = e.rules();
        for (int g = 0; g < rules.size(); g++) {
            Rule fenced = rules.get(g);
            Glob fencedPath = path(fenced);
            if (fenced.graphql() == null || fencedPath == null && fenced.path() != null) {
                continue;
            }
            for (int p = 0; p < rules.size(); p++) {
                Rule plain = rules.get(p);
                if (plain.graphql() != null || !methodsOverlap(fenced.method(), plain.method())) {
                    continue;
                }
                String variant = shadowedVariant(fenced, fencedPath, plain);
                if (variant != null) {
                    out.add(Problem.warning(ProblemCode.GRAPHQL_RULE_SHADOWED, "/allowedDomains/" + entry + "/rules/" + g,
                            "rule " + p + " admits " + Quoted.input(variant) + " without the graphql fence of rule " + g
                                    + ": paths are matched byte for byte, and origins often serve it as "
                                    + Quoted.input(fenced.path()),
                            "narrow rule " + p + "'s path (or method) so that it does not cover the graphql path's"
                                    + " case and trailing-slash variants"));
                    break;
                }
            }
        }
    }

    /** A case or trailing-slash variant of the graphql rule's path the plain rule admits and it does not. */
    private static String shadowedVariant(Rule fenced, Glob fencedPath, Rule plain) {
        if (fenced.path() == null) {
            return null; // the fence covers every path: no variant escapes it
        }
        String sample = fenced.path().replace("**", "x").replace("*", "x");
        Glob plainPath = path(plain);
        if (plain.path() != null && plainPath == null) {
            return null;
        }
        String trimmed = sample.length() > 1 && sample.endsWith("/") ? sample.substring(0, sample.length() - 1) : null;
        for (String v : new String[] {sample.toUpperCase(Locale.ROOT), capitalised(sample), sample + "/", trimmed}) {
            if (v != null && !fencedPath.matches(v) && (plainPath == null || plainPath.matches(v))) {
                return v;
            }
        }
        return null;
    }

    private static String capitalised(String path) {
        int i = path.lastIndexOf('/') + 1;
        return i < path.length() ? path.substring(0, i) + Character.toUpperCase(path.charAt(i)) + path.substring(i + 1)
                : path;
    }

    private static boolean methodsOverlap(String a, String b) {
        return a == null || b == null || a.equals(b);
    }

    private static Glob path(Rule r) {
        if (r.path() == null) {
            return null;
        }
        GlobResult g = Glob.compile(GlobKind.PATH, r.path());
        return g.ok() ? g.glob() : null;
    }
}

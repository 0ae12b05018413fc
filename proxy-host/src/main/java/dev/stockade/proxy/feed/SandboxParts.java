package dev.stockade.proxy.feed;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A sandbox's set as the platform stores it and the feed's wire 3 sends it: like {@link SandboxSet}, but its grants
 * and ceiling name documents by hash or shared lists by name ({@link SetPart}). {@link SharedLists} resolves it into
 * the {@link SandboxSet} a proxy enforces, and again whenever a list it names changes.
 */
public record SandboxParts(long version, String sandboxId, String orgId, String projectId, String tokenSha256,
                           List<SetPart> grants, List<SetPart> ceiling, List<SandboxSet.CredentialSpec> credentials) {

    public SandboxParts {
        grants = List.copyOf(grants);
        ceiling = List.copyOf(ceiling);
        credentials = List.copyOf(credentials);
    }

    /** The shared lists it names, in order. */
    public Set<String> shared() {
        Set<String> out = new LinkedHashSet<>();
        each(SetPart.Shared.class).forEach(p -> out.add(p.name()));
        return out;
    }

    /** The documents it names by hash (not through a shared list), grants then ceiling. */
    public List<DocumentHash> documents() {
        return each(SetPart.Document.class).stream().map(SetPart.Document::hash).toList();
    }

    /** Its parts of one kind, grants then ceiling. */
    private <P extends SetPart> List<P> each(Class<P> kind) {
        List<P> out = new ArrayList<>();
        for (List<SetPart> parts : List.of(grants, ceiling)) {
            parts.stream().filter(kind::isInstance).map(kind::cast).forEach(out::add);
        }
        return out;
    }

    /**
     * The set with each shared list replaced by its documents ({@code lists} answers null for a list not known: it
     * stands as {@link DocumentHash#UNAVAILABLE}, so the set denies everything), at {@code version}.
     */
    public SandboxSet resolve(Function<String, List<DocumentHash>> lists, long version) {
        return new SandboxSet(version, sandboxId, orgId, projectId, tokenSha256, expand(grants, lists),
                expand(ceiling, lists), credentials);
    }

    private static List<DocumentHash> expand(List<SetPart> parts, Function<String, List<DocumentHash>> lists) {
        List<DocumentHash> out = new ArrayList<>(parts.size());
        for (SetPart p : parts) {
            if (p instanceof SetPart.Document d) {
                out.add(d.hash());
            } else if (p instanceof SetPart.Shared s) {
                List<DocumentHash> docs = lists.apply(s.name());
                if (docs == null) {
                    out.add(DocumentHash.UNAVAILABLE);
                } else {
                    out.addAll(docs);
                }
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "SandboxParts[" + sandboxId + " v" + version + ", " + grants.size() + " parts, " + credentials.size()
                + " credentials]";
    }
}

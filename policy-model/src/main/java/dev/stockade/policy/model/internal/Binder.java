package dev.stockade.policy.model.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.model.ArgumentCondition;
import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.CredentialBinding;
import dev.stockade.policy.model.DomainEntry;
import dev.stockade.policy.model.GraphqlFence;
import dev.stockade.policy.model.Integration;
import dev.stockade.policy.model.IntegrationType;
import dev.stockade.policy.model.ManagedInference;
import dev.stockade.policy.model.MaskingType;
import dev.stockade.policy.model.OperationType;
import dev.stockade.policy.model.PiiMasking;
import dev.stockade.policy.model.Policy;
import dev.stockade.policy.model.Provider;
import dev.stockade.policy.model.Rule;
import dev.stockade.policy.model.Transport;
import dev.stockade.policy.model.Verdict;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Binds a tree that passed both validation layers to the model records. Absent key → null component. */
public final class Binder {
    private Binder() {
    }

    /** The policy of a valid tree. */
    public static Policy bind(JsonNode p) {
        return new Policy(
                str(p, "name"),
                str(p, "description"),
                Verdict.fromWire(str(p, "networkDefaultVerdict")),
                Transport.fromWire(str(p, "networkDefaultTransport")),
                list(p, "allowedDomains", Binder::domainEntry),
                list(p, "credentials", c -> new CredentialBinding(str(c, "credentialName"), str(c, "envVarKey"))),
                list(p, "connectors", c -> new ConnectorGrant(str(c, "connectorId"),
                        list(c, "allowedTools", JsonNode::textValue), str(c, "credentialId"))),
                list(p, "integrations", i -> new Integration(IntegrationType.fromWire(str(i, "type")), str(i, "name"))),
                p.hasNonNull("managedInference") ? managedInference(p.get("managedInference")) : null,
                p.hasNonNull("piiMasking") ? piiMasking(p.get("piiMasking")) : null,
                map(p, "env"));
    }

    private static DomainEntry domainEntry(JsonNode e) {
        return new DomainEntry(str(e, "pattern"), Verdict.fromWire(str(e, "verdict")),
                Transport.fromWire(str(e, "transport")), str(e, "scheme"), str(e, "description"),
                list(e, "rules", Binder::rule), list(e, "binaries", JsonNode::textValue));
    }

    private static Rule rule(JsonNode r) {
        JsonNode g = r.get("graphql");
        GraphqlFence fence = g == null || g.isNull() ? null : new GraphqlFence(
                OperationType.fromWire(str(g, "operationType")), str(g, "operationName"),
                list(g, "fields", JsonNode::textValue),
                list(g, "arguments", a -> new ArgumentCondition(str(a, "field"), str(a, "pointer"), str(a, "glob"))));
        return new Rule(str(r, "method"), str(r, "path"), fence);
    }

    private static ManagedInference managedInference(JsonNode m) {
        return new ManagedInference(bool(m, "enabled"), Provider.fromWire(str(m, "provider")),
                list(m, "providers", n -> Provider.fromWire(n.textValue())), map(m, "env"));
    }

    private static PiiMasking piiMasking(JsonNode m) {
        return new PiiMasking(list(m, "types", n -> MaskingType.fromWire(n.textValue())), bool(m, "unmaskResponses"),
                bool(m, "failOpen"));
    }

    private static String str(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? null : v.textValue();
    }

    private static Boolean bool(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? null : v.booleanValue();
    }

    private static <T> List<T> list(JsonNode n, String key, Function<JsonNode, T> each) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        List<T> out = new ArrayList<>(v.size());
        v.forEach(e -> out.add(each.apply(e)));
        return out;
    }

    private static Map<String, String> map(JsonNode n, String key) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.properties().iterator(); it.hasNext();) {
            Map.Entry<String, JsonNode> f = it.next();
            out.put(f.getKey(), f.getValue().textValue());
        }
        return out;
    }
}

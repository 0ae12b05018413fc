package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.model.ConnectorGrant;
import dev.stockade.policy.model.Policy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Stage "connector grants": one grant per connector. Tools are exact names; policies naming the same
 * connector intersect their tools; a ceiling (when there is one) intersects again, and a connector the
 * ceiling does not name keeps no tool.
 */
public final class ConnectorMerge {
    private ConnectorMerge() {
    }

    public static List<ConnectorGrant> merge(List<Policy> ceiling, List<Policy> grants) {
        Map<String, ConnectorGrant> granted = byConnector(grants);
        if (ceiling.isEmpty()) {
            return List.copyOf(granted.values());
        }
        Map<String, ConnectorGrant> limit = byConnector(ceiling);
        List<ConnectorGrant> out = new ArrayList<>();
        for (ConnectorGrant g : granted.values()) {
            ConnectorGrant c = limit.get(g.connectorId());
            List<String> tools = c == null ? List.of() : intersect(g.allowedTools(), c.allowedTools());
            out.add(new ConnectorGrant(g.connectorId(), tools, g.credentialId()));
        }
        return out;
    }

    private static Map<String, ConnectorGrant> byConnector(List<Policy> policies) {
        Map<String, ConnectorGrant> out = new LinkedHashMap<>();
        for (Policy p : policies) {
            if (p.connectors() == null) {
                continue;
            }
            for (ConnectorGrant g : p.connectors()) {
                if (g.connectorId() == null) {
                    continue;
                }
                List<String> tools = g.allowedTools() == null ? List.of() : dedupe(g.allowedTools());
                ConnectorGrant prior = out.get(g.connectorId());
                if (prior == null) {
                    out.put(g.connectorId(), new ConnectorGrant(g.connectorId(), tools, g.credentialId()));
                    continue;
                }
                boolean clash = prior.credentialId() != null && g.credentialId() != null
                        && !Objects.equals(prior.credentialId(), g.credentialId());
                // Two credentials for one connector: no tool is granted rather than guess which applies.
                List<String> merged = clash ? List.of() : intersect(prior.allowedTools(), tools);
                String credential = prior.credentialId() != null ? prior.credentialId() : g.credentialId();
                out.put(g.connectorId(), new ConnectorGrant(g.connectorId(), merged, credential));
            }
        }
        return out;
    }

    private static List<String> dedupe(List<String> tools) {
        return List.copyOf(new LinkedHashSet<>(tools));
    }

    private static List<String> intersect(List<String> a, List<String> b) {
        Set<String> keep = new LinkedHashSet<>(b == null ? List.of() : b);
        List<String> out = new ArrayList<>();
        for (String t : a == null ? List.<String>of() : a) {
            if (keep.contains(t) && !out.contains(t)) {
                out.add(t);
            }
        }
        return List.copyOf(out);
    }
}

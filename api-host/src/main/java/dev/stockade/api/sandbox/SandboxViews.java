package dev.stockade.api.sandbox;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON views of sandboxes and revisions. Never the sandbox's token. */
final class SandboxViews {
    private SandboxViews() {
    }

    static Map<String, Object> of(Sandbox s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", s.id());
        out.put("orgId", s.orgId());
        out.put("projectId", s.projectId());
        out.put("name", s.name());
        out.put("slug", s.slug());
        out.put("state", s.state().slug());
        if (!s.detail().isEmpty()) {
            out.put("detail", s.detail());
        }
        if (s.stoppedBy() != null && s.state() == SandboxState.STOPPED) {
            out.put("stoppedBy", s.stoppedBy());
        }
        out.put("activeRevision", s.activeRevision());
        SandboxConfig c = s.config();
        out.put("cpu", c.cpu());
        out.put("memory", c.memory());
        if (c.image() != null) {
            out.put("image", c.image());
        }
        out.put("policies", c.policies());
        out.put("credentials", c.credentials());
        out.put("policy", c.policy());
        out.put("ports", c.ports().stream().map(p -> Map.of("port", p.port(), "visibility", p.visibility())).toList());
        out.put("autoStop", s.autoStop() == null ? null : Quantities.text(s.autoStop()));
        out.put("autoDelete", s.autoDelete() == null ? null : Quantities.text(s.autoDelete()));
        out.put("autoStart", s.autoStart());
        out.put("lastActivityAt", s.lastActivityAt().toString());
        out.put("createdAt", s.createdAt().toString());
        out.put("updatedAt", s.updatedAt().toString());
        return out;
    }

    static List<Map<String, Object>> revisions(List<Object[]> rows, int active) {
        return rows.stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("revision", r[0]);
            m.put("active", (int) r[0] == active);
            m.put("config", r[1]);
            m.put("provisioned", r[2]);
            m.put("createdBy", r[3]);
            m.put("createdAt", ((Instant) r[4]).toString());
            return m;
        }).toList();
    }
}

package dev.stockade.api.enforcement;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.stockade.api.kernel.db.Sql;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code enforcement_shared} table: each shared list's documents now, by hash, with the version of its last
 * change (drawn from the sets' sequence, under the same lock, so readers meet sets and lists in one order).
 */
final class EnforcementShared {
    /** Lists, one row each, in order; a list whose documents did not change keeps its version. */
    private static final String UPSERT = "INSERT INTO enforcement_shared (name, org_id, documents, version)"
            + " SELECT u.name, u.org_id, u.documents::jsonb, nextval('enforcement_version')"
            + " FROM unnest(?::text[], ?::uuid[], ?::text[]) WITH ORDINALITY AS u(name, org_id, documents, n)"
            + " ORDER BY u.n ON CONFLICT (name) DO UPDATE SET documents = EXCLUDED.documents,"
            + " version = EXCLUDED.version, updated_at = now()"
            + " WHERE enforcement_shared.documents IS DISTINCT FROM EXCLUDED.documents RETURNING name";

    private final Sql jdbc;
    private final ObjectMapper json;

    EnforcementShared(Sql jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Writes the lists in one statement (the caller holds the write lock); the names of those that changed. */
    List<String> store(Collection<EnforcementStore.SharedList> lists) {
        if (lists.isEmpty()) {
            return List.of();
        }
        return jdbc.prepare(UPSERT, ps -> {
            int n = lists.size();
            Object[][] columns = new Object[3][n];
            int k = 0;
            for (EnforcementStore.SharedList l : lists) {
                columns[0][k] = l.name();
                columns[1][k] = l.orgId();
                ArrayNode docs = json.createArrayNode();
                l.documents().forEach(h -> docs.add(h.hex()));
                columns[2][k++] = docs.toString();
            }
            String[] types = {"text", "uuid", "text"};
            Sql.bindColumns(ps, types, columns);
            List<String> changed = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    changed.add(rs.getString(1));
                }
            }
            return changed;
        });
    }

    /** The lists {@code names} as they are now (one query); names never published are left out. */
    Map<String, EnforcementStore.SharedList> lists(Collection<String> names) {
        Map<String, EnforcementStore.SharedList> out = new HashMap<>();
        if (names.isEmpty()) {
            return out;
        }
        jdbc.prepare("SELECT name, org_id, documents::text FROM enforcement_shared WHERE name = ANY (?)", ps -> {
            ps.setArray(1, ps.getConnection().createArrayOf("text", names.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), new EnforcementStore.SharedList(rs.getString(1),
                            rs.getObject(2, UUID.class), SetBundles.hashes(SetBundles.tree(json, rs.getString(3)))));
                }
            }
            return null;
        });
        return out;
    }
}

package dev.stockade.api.kernel.web;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * A write that lost a race for a unique value (PostgreSQL's SQLSTATE {@code 23505}): two requests that both checked
 * the name was free and both inserted it. Whatever route it came from, it is the same {@code 409 conflict} a check
 * before the write gives, never a 500. The detail names the key's columns as API fields, never the values (they are
 * the caller's input, and may be a secret's digest).
 */
final class UniqueViolation {
    static final String SQL_STATE = "23505";

    private UniqueViolation() {
    }

    static ApiProblem of(SQLException e) {
        List<String> fields = fields(e);
        String what = fields.isEmpty() ? "a value that must be unique" : fields.size() == 1
                ? "`" + fields.get(0) + "`" : "the combination of `" + String.join("`, `", fields) + "`";
        return new ApiProblem(ProblemCode.CONFLICT, what + " is already taken in its scope (another request may have"
                + " taken it at the same time)");
    }

    /** The key's columns from the server's {@code Key (org_id, name)=(…)} detail, as camel-case fields, scope ids dropped. */
    private static List<String> fields(SQLException e) {
        ServerErrorMessage m = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
        String detail = m == null ? null : m.getDetail();
        if (detail == null || !detail.startsWith("Key (") || detail.indexOf(")=(") < 0) {
            return List.of();
        }
        List<String> columns = Arrays.stream(detail.substring(5, detail.indexOf(")=(")).split(","))
                .map(String::strip).filter(c -> c.matches("[a-z_][a-z0-9_]*")).toList();
        List<String> named = columns.stream().filter(c -> !c.endsWith("_id") && !c.equals("id")).toList();
        return (named.isEmpty() ? columns : named).stream().map(UniqueViolation::camel).toList();
    }

    private static String camel(String column) {
        StringBuilder b = new StringBuilder();
        boolean upper = false;
        for (char c : column.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                b.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return b.toString();
    }
}

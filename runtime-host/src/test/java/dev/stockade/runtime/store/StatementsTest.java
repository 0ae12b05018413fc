package dev.stockade.runtime.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store reuses a prepared statement per SQL text on its connection, against a real SQLite file: results are
 * those of fresh statements, parameters never leak from one call to the next, a failed statement is not kept, the
 * number kept is bounded, and closing the store closes them.
 */
class StatementsTest {
    @TempDir
    Path dir;
    Store store;

    @BeforeEach
    void open() throws Exception {
        store = Store.open(dir.resolve("agent.db"));
        store.update("INSERT INTO kv(key, value) VALUES (?, ?)", "a", "1");
        store.update("INSERT INTO kv(key, value) VALUES (?, ?)", "b", "2");
    }

    @AfterEach
    void close() throws Exception {
        store.close();
    }

    private String value(String key) throws SQLException {
        return store.one("SELECT value FROM kv WHERE key = ?", rs -> rs.getString(1), key);
    }

    private PreparedStatement kept(String sql) throws SQLException {
        return store.tx(c -> store.statements().get(sql));
    }

    @Test
    void aStatementIsPreparedOnceAndAnswersEachCallWithItsOwnParameters() throws Exception {
        assertThat(value("a")).isEqualTo("1");
        PreparedStatement first = kept("SELECT value FROM kv WHERE key = ?");
        assertThat(value("b")).isEqualTo("2");
        assertThat(value("missing")).isNull();
        assertThat(kept("SELECT value FROM kv WHERE key = ?")).isSameAs(first);
        store.update("UPDATE kv SET value = ? WHERE key = ?", "3", "a");
        assertThat(value("a")).isEqualTo("3");
        assertThat(store.query("SELECT key FROM kv ORDER BY key", rs -> rs.getString(1))).containsExactly("a", "b");
    }

    @Test
    void aFailedStatementIsNotKeptAndTheTransactionRollsBack() throws Exception {
        String insert = "INSERT INTO kv(key, value) VALUES (?, ?)";
        PreparedStatement before = kept(insert);
        assertThatThrownBy(() -> store.tx(c -> {
            Store.update(c, "UPDATE kv SET value = ? WHERE key = ?", "changed", "b");
            return Store.update(c, insert, "a", "duplicate key");
        })).isInstanceOf(SQLException.class);
        assertThat(value("b")).isEqualTo("2");
        PreparedStatement after = kept(insert);
        assertThat(after).isNotSameAs(before);
        assertThat(before.isClosed()).isTrue();
        store.update(insert, "c", "3");
        assertThat(value("c")).isEqualTo("3");
    }

    @Test
    void theNumberKeptIsBoundedAndTheLeastRecentlyUsedIsClosed() throws Exception {
        PreparedStatement oldest = kept("SELECT 0");
        List<PreparedStatement> later = new ArrayList<>();
        for (int i = 1; i <= Statements.CAPACITY; i++) {
            int n = i;
            later.add(kept("SELECT " + n));
            Integer answer = store.one("SELECT " + n, rs -> rs.getInt(1));
            assertThat(answer).isEqualTo(n);
        }
        assertThat(store.statements().size()).isEqualTo(Statements.CAPACITY);
        assertThat(oldest.isClosed()).isTrue();
        assertThat(later.get(later.size() - 1).isClosed()).isFalse();
    }

    @Test
    void closingTheStoreClosesItsStatements() throws Exception {
        assertThat(value("a")).isEqualTo("1");
        PreparedStatement ps = kept("SELECT value FROM kv WHERE key = ?");
        store.close();
        assertThat(ps.isClosed()).isTrue();
        store = Store.open(dir.resolve("agent.db"));
        assertThat(value("a")).isEqualTo("1");
    }
}

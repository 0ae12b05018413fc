package dev.stockade.api.kernel.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Requires;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * The same migrations the embedded database runs also run on a stock PostgreSQL 15 (Debian's, started by
 * {@code .ci/run}, which sets {@code STOCKADE_PG15_URL}); skipped locally, saying what to install, where no such server
 * is given, and failed in CI.
 */
class Postgres15MigrationTest {

    @Test
    void migrationsRunOnPostgres15AndAreRepeatable() throws Exception {
        String admin = Requires.environment("STOCKADE_PG15_URL", "point it at a PostgreSQL 15 server's admin database"
                + " (apt-get install postgresql-15; .ci/run starts one and sets it)");
        String db = "stockade_pg15_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(admin, "postgres", "")) {
            c.createStatement().execute("CREATE DATABASE " + db);
            ResultSet v = c.createStatement().executeQuery("SHOW server_version_num");
            v.next();
            assertThat(v.getInt(1)).isBetween(150000, 159999);
        }
        String url = admin.replaceFirst("/[^/?]*(\\?|$)", "/" + db + "$1");
        Flyway flyway = Flyway.configure().dataSource(url, "postgres", "").locations("classpath:db/migration").load();
        assertThat(flyway.migrate().success).isTrue();
        assertThat(flyway.migrate().migrationsExecuted).isZero();
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM information_schema.tables"
                    + " WHERE table_schema = 'public' AND table_name IN ('organizations', 'projects', 'audit_entries', 'events')");
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(4);
        }
    }
}

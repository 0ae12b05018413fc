package dev.stockade.api.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.Scratch;
import dev.stockade.testing.Await;
import dev.stockade.testing.DebianPostgres;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The migration path on an external PostgreSQL (Debian's server): two {@code stockade serve --database-url} replicas
 * started together on an empty database both come up, and every migration ran once, all of them by one replica (each
 * replica connects as its own role, and Flyway records who ran each migration): Flyway's PostgreSQL advisory lock makes
 * the other wait and find the schema current. Each replica keeps to the pool size it was given.
 */
class MigrationLockTest {

    @Test
    @Timeout(180)
    void twoReplicasStartingTogetherOnAnEmptyDatabaseMigrateItOnceBetweenThem() throws Exception {
        Path dir = Scratch.directory("stockade-migrate");
        try (DebianPostgres pg = DebianPostgres.start()) {
            String url = pg.newDatabase("stockade");
            try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement s = c.createStatement()) {
                for (String role : List.of("replica_a", "replica_b")) {
                    s.execute("CREATE ROLE " + role + " LOGIN SUPERUSER");
                }
            }
            Path config = dir.resolve("platform.yaml");
            Files.writeString(config, "sandbox:\n  local:\n    warm-pool: 0\n");
            ReplicaProcess.shareKey(dir.resolve("replica_a"), dir.resolve("replica_b"));
            List<ReplicaProcess> replicas = new ArrayList<>();
            List<Http> apis = new ArrayList<>();
            try {
                for (String role : List.of("replica_a", "replica_b")) {
                    int port = ReplicaProcess.freePort();
                    ReplicaProcess r = ReplicaProcess.platform(role, dir.resolve(role), port, url, role, config,
                            "--database-pool-size", "4", "--database-statement-timeout", "30s");
                    replicas.add(r);
                    apis.add(new Http(URI.create("http://127.0.0.1:" + port)));
                }
                replicas.forEach(ReplicaProcess::start); // together: neither waits for the other's start
                for (int i = 0; i < 2; i++) {
                    replicas.get(i).awaitOutput("platform listening on", 1, Await.LONG.multipliedBy(2));
                    Http.Response health = apis.get(i).get("/health", null);
                    assertThat(health.status()).as("%s: %s\n%s", replicas.get(i).name(), health.raw(),
                            replicas.get(i).tail()).isEqualTo(200);
                }
                try (Connection c = DriverManager.getConnection(url, "postgres", "");
                     Statement s = c.createStatement()) {
                    ResultSet rs = s.executeQuery("SELECT version, installed_by, success FROM flyway_schema_history"
                            + " WHERE version IS NOT NULL");
                    List<String> versions = new ArrayList<>();
                    Set<String> by = new TreeSet<>();
                    while (rs.next()) {
                        versions.add(rs.getString(1));
                        by.add(rs.getString(2));
                        assertThat(rs.getBoolean(3)).as("migration %s succeeded", rs.getString(1)).isTrue();
                    }
                    long shipped = migrationsShipped();
                    assertThat(versions).as("each migration recorded once").doesNotHaveDuplicates().hasSize((int) shipped);
                    assertThat(by).as("one replica ran every migration").hasSize(1);
                    assertThat(by.iterator().next()).isIn("replica_a", "replica_b");
                    // neither replica holds more connections than its --database-pool-size
                    ResultSet t = s.executeQuery("SELECT usename, count(*) FROM pg_stat_activity"
                            + " WHERE usename LIKE 'replica_%' GROUP BY usename ORDER BY usename");
                    int pools = 0;
                    while (t.next()) {
                        assertThat(t.getInt(2)).as("connections of %s", t.getString(1)).isBetween(1, 4);
                        pools++;
                    }
                    assertThat(pools).as("both replicas hold connections").isEqualTo(2);
                }
                assertThat(replicas.get(0).output() + replicas.get(1).output()).doesNotContain("Exception");
            } finally {
                replicas.forEach(ReplicaProcess::close);
            }
        }
    }

    /** How many versioned migrations the platform ships ({@code db/migration/V*.sql} on the class path). */
    private static long migrationsShipped() throws Exception {
        URI folder = MigrationLockTest.class.getResource("/db/migration").toURI();
        try (var files = Files.list(Path.of(folder))) {
            return files.filter(f -> f.getFileName().toString().matches("V\\d.*\\.sql")).count();
        }
    }
}

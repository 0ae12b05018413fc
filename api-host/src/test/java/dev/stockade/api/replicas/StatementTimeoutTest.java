package dev.stockade.api.replicas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stockade.api.ServeMain;
import dev.stockade.api.StatementTimeout;
import dev.stockade.api.support.Scratch;
import dev.stockade.testing.DebianPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code stockade serve --database-statement-timeout} and {@code --database-pool-size}: what the options read, what
 * they refuse (a usage error naming the option, no stack trace), and that the SQL every pooled connection starts with
 * makes Debian's PostgreSQL cancel a statement that runs past the bound, and that {@code serve} really starts its
 * pooled connections with it.
 */
class StatementTimeoutTest {

    @Test
    void durationsReadInTheUnitsOperatorsWriteAndBadOnesAreRefused() {
        assertThat(StatementTimeout.parse("500ms").value()).isEqualTo(Duration.ofMillis(500));
        assertThat(StatementTimeout.parse("30s").value()).isEqualTo(Duration.ofSeconds(30));
        assertThat(StatementTimeout.parse("45").value()).as("a bare number is seconds").isEqualTo(Duration.ofSeconds(45));
        assertThat(StatementTimeout.parse("2m").value()).isEqualTo(Duration.ofMinutes(2));
        assertThat(StatementTimeout.parse("0").value()).isZero();
        assertThat(StatementTimeout.DEFAULT.value()).isEqualTo(Duration.ofMinutes(1));
        assertThat(StatementTimeout.parse("2m").initSql()).isEqualTo("SET statement_timeout = 120000");
        assertThatThrownBy(() -> StatementTimeout.parse("soon")).hasMessageContaining("`soon` is not a duration");
        assertThatThrownBy(() -> StatementTimeout.parse("-5s")).hasMessageContaining("is not a duration");
        assertThatThrownBy(() -> StatementTimeout.parse("25h")).hasMessageContaining("0 to 24h");
    }

    @Test
    void badDatabaseOptionsStopServeWithAUsageErrorBeforeAnythingStarts() {
        assertThat(serve("--database-statement-timeout", "5x")).startsWith("2|")
                .contains("--database-statement-timeout").contains("`5x` is not a duration").doesNotContain("\tat ");
        assertThat(serve("--database-pool-size", "0", "--data-dir", "/nonexistent/never-made"))
                .isEqualTo("2|stockade serve: --database-pool-size must be 1 to 1000, not 0\n");
    }

    @Test
    void theInitSqlBoundsEveryStatementOnTheConnection() throws Exception {
        try (DebianPostgres pg = DebianPostgres.start();
             Connection c = DriverManager.getConnection(pg.url("postgres"), "postgres", "");
             Statement s = c.createStatement()) {
            s.execute(StatementTimeout.parse("300ms").initSql());
            ResultSet shown = s.executeQuery("SHOW statement_timeout");
            shown.next();
            assertThat(shown.getString(1)).isEqualTo("300ms");
            assertThatThrownBy(() -> s.execute("SELECT pg_sleep(5)")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as("query_canceled")
                            .isEqualTo("57014"));
            s.execute(StatementTimeout.parse("0").initSql());
            assertThat(s.execute("SELECT pg_sleep(0.5)")).as("0 lifts the bound").isTrue();
        }
    }

    @Test
    void serveGivesEveryPooledConnectionItsBound() throws Exception {
        Path dir = Scratch.directory("stockade-timeout");
        try (DebianPostgres pg = DebianPostgres.start()) {
            // a bound no migration fits in: the platform must fail to migrate, and say why, if the bound is applied
            ReplicaProcess.shareKey(dir);
            Files.writeString(dir.resolve("platform.yaml"), "sandbox:\n  local:\n    warm-pool: 0\n");
            try (ReplicaProcess tight = ReplicaProcess.platform("tight", dir, ReplicaProcess.freePort(),
                    pg.newDatabase("tight"), "postgres", dir.resolve("platform.yaml"),
                    "--database-statement-timeout", "1ms")) {
                assertThat(tight.start().awaitExit(Duration.ofSeconds(120))).as(tight.tail()).isEqualTo(2);
                assertThat(tight.output()).contains("stockade serve: ").contains("statement timeout");
            }
        }
    }

    /** Runs {@code stockade serve} with {@code args} in this JVM: its exit code, a bar, and what it printed as errors. */
    private static String serve(String... args) {
        StringWriter err = new StringWriter();
        int code = new CommandLine(new ServeMain()).setErr(new PrintWriter(err, true)).execute(args);
        return code + "|" + err;
    }
}

package dev.stockade.api.kernel.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.context.annotation.Value;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The group-commit appender on the real PostgreSQL: what it acknowledged is in the table, what failed is not. */
@MicronautTest(transactional = false)
class AuditAppenderTest extends PlatformTest {
    @Inject
    AuditAppender appender;
    @Inject
    Sql sql;
    @Inject
    TransactionOperations<Connection> tx;
    @Inject
    ObjectMapper json;
    @Value("${datasources.default.url}")
    String url;
    @Value("${datasources.default.username}")
    String user;
    @Value("${datasources.default.password:}")
    String password;

    private UUID org;

    @BeforeEach
    void org() {
        org = UUID.fromString(createOrg(ownerToken(), "appender-" + UUID.randomUUID()));
    }

    @Test
    void everyAcknowledgedEntryIsCommittedWithItsFields() throws Exception {
        ExecutorService producers = Executors.newFixedThreadPool(8);
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        try {
            List<CompletableFuture<CompletableFuture<Void>>> queued = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                for (int i = 0; i < 250; i++) {
                    int n = i;
                    queued.add(CompletableFuture.supplyAsync(() -> appender.append(event(org, "ack-" + thread + "-" + n)),
                            producers));
                }
            }
            for (CompletableFuture<CompletableFuture<Void>> q : queued) {
                acks.add(q.get(60, TimeUnit.SECONDS));
            }
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } finally {
            producers.shutdownNow();
        }
        assertThat(count("ack-%")).isEqualTo(2000);
        List<String> row = sql.prepare("SELECT kind, action, outcome, actor_type, actor_id, details->>'host', is_read,"
                + " project_id IS NULL FROM audit_entries WHERE target = 'ack-3-7'", ps -> {
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        List<String> out = new ArrayList<>();
                        for (int i = 1; i <= 8; i++) {
                            out.add(rs.getString(i));
                        }
                        return out;
                    }
                });
        assertThat(row).containsExactly("egress", "decide", "denied", "sandbox-token", "sbx-1", "api.example.com", "t",
                "t");
    }

    @Test
    void aBatchThatCannotCommitFailsEveryCallerInItAndStoresNothing() throws Exception {
        execute("ALTER TABLE audit_entries RENAME TO audit_entries_away");
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                acks.add(appender.append(event(org, "lost-" + i)));
            }
            for (CompletableFuture<Void> ack : acks) {
                assertThatThrownBy(() -> ack.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            }
        } finally {
            execute("ALTER TABLE audit_entries_away RENAME TO audit_entries");
        }
        assertThat(count("lost-%")).isZero();
        appender.append(event(org, "after-outage")).get(60, TimeUnit.SECONDS);
        assertThat(count("after-outage")).isEqualTo(1);
    }

    @Test
    void oneBadEntryFailsOnlyItsOwnCaller() throws Exception {
        List<CompletableFuture<Void>> good = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            good.add(appender.append(event(org, "good-" + i)));
        }
        CompletableFuture<Void> bad = appender.append(event(UUID.randomUUID(), "no-such-org")); // foreign key
        for (int i = 10; i < 20; i++) {
            good.add(appender.append(event(org, "good-" + i)));
        }
        assertThatThrownBy(() -> bad.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        CompletableFuture.allOf(good.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertThat(count("good-%")).isEqualTo(20);
        assertThat(count("no-such-org")).isZero();
    }

    @Test
    void entriesWithoutAnOrganizationAreStoredInstallationWideEvenMixedIntoABatch() throws Exception {
        String mark = "no-org-" + UUID.randomUUID();
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // alternate, so most batches hold both kinds
            acks.add(appender.append(event(i % 2 == 0 ? null : org, mark + "-" + i)));
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        long installationWide = sql.prepare("SELECT count(*) FROM audit_entries WHERE org_id IS NULL AND target LIKE ?",
                ps -> {
                    ps.setString(1, mark + "-%");
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return rs.getLong(1);
                    }
                });
        assertThat(installationWide).isEqualTo(20);
        assertThat(count(mark + "-%")).isEqualTo(20);
    }

    @Test
    void aFullQueueRefusesNewEntriesInsteadOfGrowing() throws Exception {
        AuditAppender small = new AuditAppender(sql, tx, 4, 2, 1, Duration.ofMillis(200), json);
        List<CompletableFuture<Void>> accepted = new ArrayList<>();
        int refused = 0;
        try (Connection locker = DriverManager.getConnection(url, user, password)) {
            locker.setAutoCommit(false);
            try (Statement s = locker.createStatement()) {
                s.execute("LOCK TABLE audit_entries IN ACCESS EXCLUSIVE MODE"); // the writer blocks behind it
            }
            for (int i = 0; i < 50 && refused == 0; i++) {
                CompletableFuture<Void> f = small.append(event(org, "bp-" + i));
                if (f.isCompletedExceptionally()) {
                    assertThatThrownBy(f::join).hasCauseInstanceOf(RejectedExecutionException.class);
                    refused++;
                } else {
                    accepted.add(f);
                }
            }
            assertThat(refused).isEqualTo(1);
            // the queue (4) plus the batch the writer holds (at most 2); nothing committed while the lock is held
            assertThat(accepted.size()).isBetween(4, 6);
            assertThat(accepted).noneMatch(CompletableFuture::isDone);
            locker.rollback();
        } finally {
            CompletableFuture.allOf(accepted.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            small.close();
        }
        assertThat(count("bp-%")).isEqualTo(accepted.size());
        assertThat(small.append(event(org, "bp-closed")))
                .failsWithin(Duration.ofSeconds(1)).withThrowableOfType(ExecutionException.class);
    }

    @Test
    void aWaitingCallerAloneCommitsOnItsOwnThreadWhileTheWriterIsStuck() throws Exception {
        UUID other = UUID.fromString(createOrg(ownerToken(), "appender-other-" + UUID.randomUUID()));
        AuditAppender small = new AuditAppender(sql, tx, 16, 4, 1, Duration.ofSeconds(5), json);
        CompletableFuture<Void> queued;
        try (Connection locker = DriverManager.getConnection(url, user, password)) {
            locker.setAutoCommit(false);
            lockOrganization(locker, other); // an entry of `other` waits for its row; entries of `org` do not
            queued = small.append(event(other, "stuck-writer"));
            Await.until("the writer waits for the locked organization", () -> waitingForLock() >= 1);
            small.commitAll(List.of(event(org, "direct-1"), event(org, "direct-2"))); // the only writer is stuck
            assertThat(count("direct-%")).isEqualTo(2);
            assertThat(queued).isNotDone();
            locker.rollback();
        }
        queued.get(60, TimeUnit.SECONDS);
        small.close();
    }

    @Test
    void aSecondWaitingCallerIsGroupedByTheWritersWhileTheFirstCommitsDirectly() throws Exception {
        UUID other = UUID.fromString(createOrg(ownerToken(), "appender-other-" + UUID.randomUUID()));
        AuditAppender small = new AuditAppender(sql, tx, 16, 4, 1, Duration.ofSeconds(5), json);
        ExecutorService first = Executors.newSingleThreadExecutor();
        try (Connection locker = DriverManager.getConnection(url, user, password)) {
            locker.setAutoCommit(false);
            lockOrganization(locker, other);
            Future<?> direct = first.submit(() -> small.commitAll(List.of(event(other, "first-direct"))));
            Await.until("the first caller waits for the locked organization", () -> waitingForLock() >= 1);
            small.commitAll(List.of(event(org, "second-grouped"))); // the direct slot is taken: the writer stores it
            assertThat(count("second-grouped")).isEqualTo(1);
            assertThat(direct).isNotDone();
            locker.rollback();
            direct.get(60, TimeUnit.SECONDS);
        } finally {
            first.shutdownNow();
            small.close();
        }
        assertThat(sql.query("SELECT count(*) FROM audit_entries WHERE org_id = ? AND target = 'first-direct'",
                List.of(other), rs -> rs.getLong(1))).containsExactly(1L);
    }

    @Test
    void aWaitingCallerInsideATransactionIsCommittedApartFromIt() {
        assertThatThrownBy(() -> tx.executeWrite(status -> {
            appender.commitAll(List.of(event(org, "apart-from-tx")));
            throw new IllegalStateException("the surrounding transaction rolls back");
        })).hasMessageContaining("rolls back");
        assertThat(count("apart-from-tx")).isEqualTo(1);
    }

    @Test
    void aWaitingCallerWhoseEntryCannotBeStoredIsToldAndTheOthersAreStored() {
        assertThatThrownBy(() -> appender.commitAll(List.of(event(org, "kept-beside-bad"),
                event(UUID.randomUUID(), "bad-org")))).isInstanceOf(CompletionException.class);
        assertThat(count("kept-beside-bad")).isEqualTo(1);
        appender.commitAll(List.of(event(org, "after-bad")));
        assertThat(count("after-bad")).isEqualTo(1);
    }

    @Test
    void aStoppedAppenderRefusesAWaitingCaller() {
        AuditAppender small = new AuditAppender(sql, tx, 4, 2, 1, Duration.ofMillis(200), json);
        small.close();
        assertThatThrownBy(() -> small.commitAll(List.of(event(org, "after-close"))))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(count("after-close")).isZero();
    }

    /** Takes the organization's row for update on {@code locker}: an entry of that organization waits (its key). */
    private static void lockOrganization(Connection locker, UUID orgId) throws Exception {
        try (var ps = locker.prepareStatement("SELECT id FROM organizations WHERE id = ? FOR UPDATE")) {
            ps.setObject(1, orgId);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    /** Sessions of this database waiting for a lock right now. */
    private long waitingForLock() {
        return sql.query("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'", List.of(),
                rs -> rs.getLong(1)).get(0);
    }

    private static AuditEvent event(UUID orgId, String target) {
        return AuditEvent.of(AuditKind.EGRESS, "decide").org(orgId).read(true).outcome(AuditOutcome.DENIED)
                .by(Actor.of("sandbox-token", "sbx-1")).target(target).details(Map.of("host", "api.example.com"))
                .build();
    }

    private long count(String targetLike) {
        return sql.prepare("SELECT count(*) FROM audit_entries WHERE org_id = ? AND target LIKE ?", ps -> {
            ps.setObject(1, org);
            ps.setString(2, targetLike);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    private void execute(String statement) throws Exception {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}

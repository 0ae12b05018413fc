package dev.stockade.api.kernel.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The remembered roles of {@link MemberRoles} never outlive their bound: a removal through the API is in force at
 * once, one announced by another replica's event within the event delay, and one without any event (a cascade)
 * within {@code config.token-cache-ttl}.
 */
@MicronautTest(transactional = false)
class MemberRolesTest extends PlatformTest {
    private static final Duration TTL = Duration.ofSeconds(8);

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("config.token-cache-ttl", TTL.toSeconds() + "s");
    }

    private record Member(String project, String token, String tokenId) {
    }

    private Member projectMember(String owner) {
        String org = createOrg(owner, "roles-" + UUID.randomUUID());
        String project = createProject(owner, org, "p");
        String token = createApiToken(owner, org, "bot");
        String tokenId = http.get("/v1/auth/me", token).text("id");
        assertThat(http.put("/v1/projects/" + project + "/members/api-tokens/" + tokenId, owner,
                Map.of("role", "MEMBER")).status()).isEqualTo(204);
        assertThat(http.get("/v1/projects/" + project, token).status()).isEqualTo(200);
        return new Member(project, token, tokenId);
    }

    private int readProject(Member m) {
        return http.get("/v1/projects/" + m.project(), m.token()).status();
    }

    private void deleteRowWithoutEvent(Member m) {
        server.getApplicationContext().getBean(Sql.class).update("DELETE FROM project_members WHERE project_id = ?"
                + " AND principal_type = 'api-token' AND principal_id = ?",
                List.of(UUID.fromString(m.project()), UUID.fromString(m.tokenId())));
    }

    @Test
    void aRoleRemovedThroughTheApiStopsWorkingAtOnce() {
        String owner = ownerToken();
        Member m = projectMember(owner);
        assertThat(http.delete("/v1/projects/" + m.project() + "/members/api-tokens/" + m.tokenId(), owner).status())
                .isEqualTo(204);
        assertThat(problem(http.get("/v1/projects/" + m.project(), m.token()), 403)).isEqualTo("forbidden");
    }

    @Test
    void anAccessEventFromAnotherReplicaDropsTheRememberedRoles() {
        Member m = projectMember(ownerToken());
        deleteRowWithoutEvent(m);
        // what another replica's membership write leaves in the shared database: the row gone and an access event
        server.getApplicationContext().getBean(Sql.class).update("INSERT INTO events (topic, org_id, payload)"
                + " VALUES ('access', NULL, '{}'::jsonb)", List.of());
        server.getApplicationContext().getBean(Sql.class).update("NOTIFY stockade_events", List.of());
        // well inside the cache's own expiry, so only the event can have dropped it
        Await.until("the removed role to be refused after the access event", TTL.dividedBy(2),
                () -> readProject(m) == 403);
    }

    @Test
    void aRowRemovedWithoutAnEventIsForgottenWithinTheTokenCacheBound() {
        Member m = projectMember(ownerToken());
        long removedAt = System.nanoTime();
        deleteRowWithoutEvent(m);
        assertThat(readProject(m)).as("remembered until the bound").isEqualTo(200);
        Await.until("the removed role to be refused", TTL.multipliedBy(3), () -> readProject(m) == 403);
        assertThat(Duration.ofNanos(System.nanoTime() - removedAt)).isLessThan(TTL.plusSeconds(3));
    }
}

package dev.stockade.api.kernel.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The plain-SQL helpers features share, on the real database: a lookup answers its first row or nothing, an existence
 * check says whether a row came back, and arguments bind as the SQL expects them (UUIDs, UUID arrays for
 * {@code = ANY (?)}, instants, untyped nulls).
 */
@MicronautTest(transactional = false)
class SqlTest extends PlatformTest {
    @Inject
    Sql sql;

    @Test
    void aLookupAnswersTheFirstRowOrNothing() {
        assertThat(sql.first("SELECT v FROM (VALUES (1), (2)) t(v) ORDER BY v DESC", List.of(), rs -> rs.getInt(1)))
                .contains(2);
        assertThat(sql.first("SELECT 1 WHERE ?::int > 1", List.of(1), rs -> rs.getInt(1))).isEmpty();
    }

    @Test
    void anExistenceCheckSaysWhetherARowCameBack() {
        assertThat(sql.exists("SELECT 1 WHERE ?::text = 'a'", List.of("a"))).isTrue();
        assertThat(sql.exists("SELECT 1 WHERE ?::text = 'a'", List.of("b"))).isFalse();
    }

    @Test
    void uuidsBindAsAnArrayForAny() {
        UUID a = UUID.fromString("00000000-0000-0000-0000-00000000000a");
        UUID b = UUID.fromString("00000000-0000-0000-0000-00000000000b");
        UUID c = UUID.fromString("00000000-0000-0000-0000-00000000000c");
        List<UUID> found = sql.query("SELECT v FROM (VALUES (?), (?), (?)) t(v) WHERE v = ANY (?) ORDER BY v",
                List.of(a, b, c, new UUID[] {c, a}), rs -> rs.getObject(1, UUID.class));
        assertThat(found).containsExactly(a, c);
    }

    @Test
    void instantsAndNullsBindAsTheSqlExpects() {
        assertThat(sql.first("SELECT ?::timestamptz = '2020-01-02T03:04:05.000006Z'::timestamptz",
                List.of(Instant.parse("2020-01-02T03:04:05.000006Z")), rs -> rs.getBoolean(1))).contains(true);
        assertThat(sql.first("SELECT ?::uuid IS NULL", Arrays.asList((Object) null), rs -> rs.getBoolean(1)))
                .contains(true);
    }
}

package dev.stockade.api.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Committed events reach subscribers of their topic on this replica, in id order, through LISTEN/NOTIFY. */
@MicronautTest(transactional = false)
class EventStreamTest extends PlatformTest {
    @Inject
    EventStream stream;

    @Test
    void committedHaltsReachSubscribersInOrderAndOtherTopicsDoNot() throws Exception {
        List<EventStream.Event> halts = new CopyOnWriteArrayList<>();
        List<EventStream.Event> others = new CopyOnWriteArrayList<>();
        CountDownLatch two = new CountDownLatch(2);
        stream.subscribe(Topic.HALT, e -> {
            halts.add(e);
            two.countDown();
        });
        stream.subscribe(Topic.CONNECTOR, others::add);
        String owner = ownerToken();
        String org = createOrg(owner, "streamed");

        assertThat(http.post("/v1/orgs/" + org + "/halt", owner, null).status()).isEqualTo(200);
        assertThat(http.delete("/v1/orgs/" + org + "/halt", owner).status()).isEqualTo(200);

        assertThat(two.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(halts).extracting(e -> e.payload().path("halted").asBoolean()).containsExactly(true, false);
        assertThat(halts.get(0).id()).isLessThan(halts.get(1).id());
        assertThat(halts).allSatisfy(e -> assertThat(e.orgId()).hasToString(org));
        assertThat(others).isEmpty();
    }

    @Test
    void aChangeIsInForceOnThisReplicaBeforeItIsAcknowledged() {
        List<EventStream.Event> seen = new CopyOnWriteArrayList<>();
        stream.subscribe(Topic.HALT, seen::add);
        String owner = ownerToken();
        String org = createOrg(owner, "read-your-writes");

        assertThat(http.post("/v1/orgs/" + org + "/halt", owner, null).status()).isEqualTo(200);
        // no wait: the request returned only once this replica's subscribers had the committed event
        assertThat(seen).extracting(e -> e.orgId().toString()).contains(org);
    }
}

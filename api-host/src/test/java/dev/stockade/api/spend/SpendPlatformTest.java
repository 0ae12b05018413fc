package dev.stockade.api.spend;

import dev.stockade.api.support.PlatformTest;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;

/** A running platform with the ledger at hand and a {@link SpendWorld} to build organizations and usage in. */
abstract class SpendPlatformTest extends PlatformTest {
    @Inject
    UsageLedger ledger;

    SpendWorld world;

    @Override
    protected Map<String, String> extraProperties() {
        return SpendWorld.PROPERTIES;
    }

    @BeforeEach
    void world() {
        world = new SpendWorld(http, ownerToken(), ledger);
    }
}

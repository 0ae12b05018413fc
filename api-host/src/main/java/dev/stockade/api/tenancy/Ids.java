package dev.stockade.api.tenancy;

import dev.stockade.api.kernel.access.Authorizer;
import java.util.UUID;

/** Path ids that the authorization scope does not cover (a member's user id, an invitation id). */
final class Ids {
    private Ids() {
    }

    static UUID of(String name, String value) {
        return Authorizer.uuid(name, value);
    }
}

package dev.stockade.api.kernel.access;

import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.PathVariable;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The scope variables of a method that serves several levels' paths alike (an organization's and a project's, or the
 * installation-wide one and a project's): the variable the matched path names is set, the others are null. Declaring
 * them keeps every path's variables bound and documented as the required strings they are; by the time the method
 * runs, the access filter has authorized the action of the scope the path names ({@link Access}).
 *
 * @param orgId     the organization a path of the organization level names
 * @param projectId the project a path of the project level names
 */
@Introspected
public record ScopePath(@PathVariable @Nullable @Schema(type = "string", nullable = false) String orgId,
                        @PathVariable @Nullable @Schema(type = "string", nullable = false) String projectId) {
}

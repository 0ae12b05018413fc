package dev.stockade.api.kernel.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which action a route declares when one method serves an organization's and a project's paths: the action of the
 * scope the matched path names (the installation-wide one for a path that names none), and no action at all (a
 * refused route) when that is not exactly one.
 */
class DeclaredActionTest {
    private static final Action[] BOTH_LEVELS = {Action.ORG_POLICIES_READ, Action.PROJECT_POLICIES_READ};

    @Test
    void aSingleDeclarationIsTheActionWhateverThePathNames() {
        assertThat(AccessFilter.declared(new Action[] {Action.HEALTH}, Map.of())).contains(Action.HEALTH);
        assertThat(AccessFilter.declared(new Action[] {Action.ORG_READ}, Map.of("projectId", "p")))
                .contains(Action.ORG_READ);
    }

    @Test
    void anOrganizationPathTakesTheOrganizationAction() {
        assertThat(AccessFilter.declared(BOTH_LEVELS, Map.of("orgId", "o", "policyId", "x")))
                .contains(Action.ORG_POLICIES_READ);
    }

    @Test
    void aProjectPathTakesTheProjectAction() {
        assertThat(AccessFilter.declared(BOTH_LEVELS, Map.of("projectId", "p", "policyId", "x")))
                .contains(Action.PROJECT_POLICIES_READ);
    }

    @Test
    void aPathNamingNoScopeTakesTheInstallationWideAction() {
        Action[] endpoints = {Action.MCP, Action.PROJECT_MCP};
        assertThat(AccessFilter.declared(endpoints, Map.of())).contains(Action.MCP);
        assertThat(AccessFilter.declared(endpoints, Map.of("projectId", "p"))).contains(Action.PROJECT_MCP);
    }

    @Test
    void aPathNamingNeitherScopeDeclaresNothing() {
        assertThat(AccessFilter.declared(BOTH_LEVELS, Map.of("policyId", "x"))).isEmpty();
        assertThat(AccessFilter.declared(new Action[0], Map.of("orgId", "o"))).isEmpty();
    }

    @Test
    void aPathNamingBothScopesOrTwoActionsOfOneScopeDeclaresNothing() {
        assertThat(AccessFilter.declared(BOTH_LEVELS, Map.of("orgId", "o", "projectId", "p"))).isEmpty();
        assertThat(AccessFilter.declared(new Action[] {Action.ORG_POLICIES_READ, Action.ORG_BINDINGS_READ},
                Map.of("orgId", "o"))).isEmpty();
    }
}

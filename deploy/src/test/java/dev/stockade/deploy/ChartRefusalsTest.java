package dev.stockade.deploy;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Values the chart refuses while Helm renders, with Helm's message naming the value: values.schema.json (types,
 * enums, what a value needs beside it) and the templates' own checks (what the schema cannot see).
 */
class ChartRefusalsTest {

    @Test
    void refusesAProvisionerTheChartCannotRun() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("sandbox.provisioner", "local")))
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContaining("- sandbox.provisioner: sandbox.provisioner must be one of the following: \"kubernetes\"");
    }

    @Test
    void refusesAHeaderLimitOutsideThePlatformsBounds() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("config.maxHeaderBytes", 512)))
                .hasMessageContaining("- config.maxHeaderBytes: Must be greater than or equal to 1024");
    }

    @Test
    void refusesAMisspelledValue() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("hub.fleetID", "fleet-1")))
                .hasMessageContaining("- hub: Additional property fleetID is not allowed");
    }

    @Test
    void refusesExternalProviderWithoutAnIssuer() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("oidc.useExternalProvider", true)))
                .hasMessageContaining("- oidc.issuer: String length must be greater than or equal to 1")
                .hasMessageContaining("- oidc.audience: String length must be greater than or equal to 1");
    }

    @Test
    void refusesHubValuesWithoutTheAccessTokenSecret() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("hub.fleetId", "fleet-1", "hub.url", "https://hub.example.com")))
                .hasMessageContaining("- hub.accessTokenSecret.name: String length must be greater than or equal to 1");
    }

    @Test
    void refusesAPublicUrlThatIsNotHttp() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("config.publicUrl", "stockade.example.com")))
                .hasMessageContaining("- config.publicUrl: Does not match pattern");
    }

    @Test
    void refusesReplicasOnTheEmbeddedDatabase() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("platform.replicas", 2)))
                .hasMessageContaining("platform.replicas above 1 needs an external PostgreSQL (database.existingSecret)");
    }

    @Test
    void refusesProxiesWithoutAProxyToken() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("proxy.enabled", true)))
                .hasMessageContaining("proxy.enabled needs proxy.platformTokenSecret.name");
    }

    @Test
    void refusesAnIngressWithoutAPublicUrl() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("ingress.enabled", true)))
                .hasMessageContaining("ingress.enabled needs config.publicUrl");
    }
}

package dev.stockade.api.sandbox.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.exceptions.ConfigurationException;
import jakarta.inject.Singleton;

/**
 * The cluster client of the kubernetes provisioner: fabric8 on the JDK's HTTP client, configured the standard way
 * (in-cluster service account, else {@code KUBECONFIG} or {@code ~/.kube/config}).
 */
@Factory
@Requires(property = "sandbox.provisioner", value = "kubernetes")
final class KubernetesClientFactory {
    @Singleton
    @Bean(preDestroy = "close")
    KubernetesClient kubernetesClient(KubernetesSettings settings) {
        if (!settings.problems().isEmpty()) {
            throw new ConfigurationException("invalid configuration:\n  - " + String.join("\n  - ", settings.problems()));
        }
        return new KubernetesClientBuilder().withHttpClientFactory(new JdkHttpClientFactory()).build();
    }
}

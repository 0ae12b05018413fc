package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade cluster ...}: Kubernetes clusters registered with a project (sandboxes reach them by proxy). */
@Command(name = "cluster", aliases = "clusters", mixinStandardHelpOptions = true, description = "Kubernetes clusters"
        + " registered with a project: reached through their relay (tunnel token) or their API server URL.")
public final class ClusterCommand extends Group {
    static final List<Output.Column> CLUSTER = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("PROJECT", "projectId"), Output.Column.of("MODE", "mode"),
            Output.Column.of("API SERVER", "apiServerUrl"), Output.Column.of("DESCRIPTION", "description"),
            Output.Column.time("TOKEN ROTATED", "tunnelTokenRotatedAt"), Output.Column.time("CREATED", "createdAt"));
    static final List<Output.Column> WITH_TOKEN = List.of(Output.Column.of("ID", "id"), Output.Column.of("NAME", "name"),
            Output.Column.of("MODE", "mode"), Output.Column.of("API SERVER", "apiServerUrl"),
            Output.Column.of("TUNNEL TOKEN", "tunnelToken"));

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The project's clusters.")
    int list(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
             @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get("/v1/projects/" + seg(project) + "/clusters"), CLUSTER));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Register a cluster (project admins);"
            + " its tunnel token is printed once.")
    int create(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
               @Parameters(paramLabel = "NAME") String name,
               @Option(names = "--description", paramLabel = "TEXT") String description,
               @Option(names = "--api-server-url", paramLabel = "URL", description = "Dial this API server directly"
                       + " (https); without it the cluster is reached through its relay.") String url,
               @Option(names = "--ca-file", paramLabel = "FILE", description = "PEM certificates to trust for"
                       + " --api-server-url.") Path caFile,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            Map<String, Object> body = fields(name, description, url, caFile);
            shownOnce(out, client.post("/v1/projects/" + seg(project) + "/clusters", body));
        });
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One cluster.")
    int get(@Parameters(paramLabel = "CLUSTER_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get("/v1/clusters/" + seg(id)), CLUSTER));
    }

    @Command(name = "update", mixinStandardHelpOptions = true, description = "Change a cluster (project admins);"
            + " an empty --api-server-url or --ca-file '' clears it.")
    int update(@Parameters(paramLabel = "CLUSTER_ID") String id,
               @Option(names = "--name", paramLabel = "NAME") String name,
               @Option(names = "--description", paramLabel = "TEXT") String description,
               @Option(names = "--api-server-url", paramLabel = "URL") String url,
               @Option(names = "--ca-file", paramLabel = "FILE") Path caFile,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            Map<String, Object> body = fields(name, description, url, caFile);
            if (body.isEmpty()) {
                throw Failure.usage("give --name, --description, --api-server-url or --ca-file");
            }
            out.record(client.patch("/v1/clusters/" + seg(id), body), CLUSTER);
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a cluster (project admins).")
    int delete(@Parameters(paramLabel = "CLUSTER_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete("/v1/clusters/" + seg(id));
            out.done("deleted cluster " + id);
        });
    }

    @Command(name = "rotate-tunnel-token", mixinStandardHelpOptions = true, description = "Make a new tunnel token,"
            + " printed once; the old one stops working at once (project admins).")
    int rotate(@Parameters(paramLabel = "CLUSTER_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> shownOnce(out,
                client.post("/v1/clusters/" + seg(id) + "/rotate-tunnel-token", null)));
    }

    private static void shownOnce(Output out, JsonNode answer) {
        out.record(answer, WITH_TOKEN);
        out.note(out.format() == Output.Format.id
                ? "--format id printed only the id: the tunnel token is not shown and cannot be shown again"
                : "the tunnel token is shown once: give it to the cluster's relay now (the platform keeps only its"
                + " hash)");
    }

    private static Map<String, Object> fields(String name, String description, String url, Path caFile) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (name != null) {
            body.put("name", name);
        }
        if (description != null) {
            body.put("description", description);
        }
        if (url != null) {
            body.put("apiServerUrl", url);
        }
        if (caFile != null) {
            body.put("caCertificate", caFile.toString().isEmpty() ? "" : read(caFile));
        }
        return body;
    }

    private static String read(Path file) {
        try {
            if (Files.size(file) > 65_536) {
                throw Failure.usage("--ca-file " + Text.shown(file) + ": larger than 64 KiB, not a CA bundle");
            }
            return Files.readString(file);
        } catch (IOException e) {
            throw Failure.usage("--ca-file " + Text.shown(file) + ": cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }
}

package dev.stockade.cli.rest;

import static dev.stockade.cli.rest.ApiClient.seg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code stockade aws-connections ...}: the IAM roles a project's sandboxes may assume when a policy names them. */
@Command(name = "aws-connections", aliases = "aws-connection", mixinStandardHelpOptions = true, description = "AWS"
        + " connections of a project: IAM roles the platform assumes (with an external ID) for sandboxes whose policy"
        + " names them.")
public final class AwsConnectionsCommand extends Group {
    static final List<Output.Column> CONNECTION = List.of(Output.Column.of("ID", "id"),
            Output.Column.of("NAME", "name"), Output.Column.of("ROLE", "roleArn"),
            Output.Column.of("EXTERNAL ID", "externalId"), Output.Column.of("REGION", "region"),
            Output.Column.of("SESSION (S)", "sessionDurationSeconds"), Output.Column.of("STS ENDPOINT", "stsEndpoint"),
            Output.Column.time("CREATED", "createdAt"));

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The project's AWS connections.")
    int list(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
             @Mixin ApiOptions api) {
        return api.call((client, out) -> out.list(client.get("/v1/projects/" + seg(project) + "/aws-connections"),
                CONNECTION));
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create an AWS connection (project"
            + " admins); the external ID (generated unless given) goes into the role's trust policy.")
    int create(@Option(names = "--project", paramLabel = "PROJECT_ID", required = true) String project,
               @Parameters(paramLabel = "NAME") String name,
               @Option(names = "--role-arn", paramLabel = "ARN", required = true) String roleArn,
               @Option(names = "--region", paramLabel = "REGION", required = true) String region,
               @Option(names = "--external-id", paramLabel = "ID") String externalId,
               @Option(names = "--session-duration", paramLabel = "SECONDS", description = "900 to 43200 (default"
                       + " 3600)") Integer duration,
               @Option(names = "--sts-endpoint", paramLabel = "URL") String endpoint,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.post("/v1/projects/" + seg(project) + "/aws-connections",
                fields(name, roleArn, region, externalId, duration, endpoint)), CONNECTION));
    }

    @Command(name = "get", mixinStandardHelpOptions = true, description = "One AWS connection.")
    int get(@Parameters(paramLabel = "CONNECTION_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> out.record(client.get("/v1/aws-connections/" + seg(id)), CONNECTION));
    }

    @Command(name = "update", mixinStandardHelpOptions = true, description = "Change an AWS connection (project"
            + " admins); an empty --sts-endpoint clears it.")
    int update(@Parameters(paramLabel = "CONNECTION_ID") String id,
               @Option(names = "--name", paramLabel = "NAME") String name,
               @Option(names = "--role-arn", paramLabel = "ARN") String roleArn,
               @Option(names = "--region", paramLabel = "REGION") String region,
               @Option(names = "--external-id", paramLabel = "ID") String externalId,
               @Option(names = "--session-duration", paramLabel = "SECONDS") Integer duration,
               @Option(names = "--sts-endpoint", paramLabel = "URL") String endpoint,
               @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            Map<String, Object> body = fields(name, roleArn, region, externalId, duration, endpoint);
            if (body.isEmpty()) {
                throw Failure.usage("give --name, --role-arn, --region, --external-id, --session-duration or"
                        + " --sts-endpoint");
            }
            out.record(client.patch("/v1/aws-connections/" + seg(id), body), CONNECTION);
        });
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete an AWS connection (project"
            + " admins).")
    int delete(@Parameters(paramLabel = "CONNECTION_ID") String id, @Mixin ApiOptions api) {
        return api.call((client, out) -> {
            client.delete("/v1/aws-connections/" + seg(id));
            out.done("deleted AWS connection " + id);
        });
    }

    private static Map<String, Object> fields(String name, String roleArn, String region, String externalId,
                                              Integer duration, String endpoint) {
        Map<String, Object> body = new LinkedHashMap<>();
        put(body, "name", name);
        put(body, "roleArn", roleArn);
        put(body, "region", region);
        put(body, "externalId", externalId);
        put(body, "sessionDurationSeconds", duration);
        put(body, "stsEndpoint", endpoint);
        return body;
    }

    private static void put(Map<String, Object> body, String key, Object value) {
        if (value != null) {
            body.put(key, value);
        }
    }
}

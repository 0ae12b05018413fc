package dev.stockade.api;

import dev.stockade.api.kernel.config.PlatformVersion;
import dev.stockade.api.kernel.db.EmbeddedDatabase;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code stockade serve}: starts the platform host. Without {@code --database-url} it runs a real embedded
 * PostgreSQL in {@code <data-dir>/pg}; with it, an external PostgreSQL. Flyway migrations run at start either way.
 * Configuration also comes from {@code --config FILE} (YAML) and environment variables ({@code CONFIG_PUBLIC_URL},
 * {@code OIDC_ISSUER}, {@code HUB_URL}, ...), validated at boot.
 */
@OpenAPIDefinition(info = @Info(title = "Stockade platform API", version = PlatformVersion.VALUE,
        description = "REST API of the Stockade platform: organizations, projects, tokens, halt, audit."))
@Command(name = "serve", mixinStandardHelpOptions = true, version = "stockade " + PlatformVersion.VALUE,
        description = "Start the Stockade platform (REST API under /v1).")
public final class ServeMain implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where the installation keeps its files (default: ${DEFAULT-VALUE}).")
    Path dataDir = Path.of(".stockade", "platform");

    @Option(names = "--port", description = "HTTP port (default: ${DEFAULT-VALUE}).")
    int port = 8080;

    @Option(names = "--bind", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    @Option(names = "--database-url", paramLabel = "JDBC_URL", description = "External PostgreSQL, e.g. jdbc:postgresql://db:5432/stockade.")
    String databaseUrl;

    @Option(names = "--database-user", description = "User for --database-url (default: ${DEFAULT-VALUE}).")
    String databaseUser = "stockade";

    @Option(names = "--database-password-file", paramLabel = "FILE", description = "File holding the password for --database-url.")
    Path databasePasswordFile;

    // unset keeps datasources.default.maximum-pool-size of the configuration (application.yml's 16, or the chart's)
    @Option(names = "--database-pool-size", paramLabel = "N",
            description = "Connections this replica keeps open to PostgreSQL (1 to 1000; default 16).")
    Integer databasePoolSize;

    @Option(names = "--database-statement-timeout", paramLabel = "DURATION", converter = StatementTimeout.Converter.class,
            description = "Longest a database statement may run before PostgreSQL cancels it, e.g. 30s, 2m, 500ms;"
                    + " 0 = no bound (default: ${DEFAULT-VALUE}).")
    StatementTimeout statementTimeout = StatementTimeout.DEFAULT;

    // repeatable: the Helm chart adds the operator's OAuth applications (oauthApplications.existingSecret) as a second file
    @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration file (spec names: config.publicUrl, oidc.issuer, hub.url, ...); repeatable.")
    List<Path> configFiles = new ArrayList<>();

    @Option(names = "--public-url", paramLabel = "URL", description = "config.publicUrl (default: http://<bind>:<port>).")
    String publicUrl;

    @Option(names = "--dev-hub", description = "Serve a local enrollment hub on loopback and enroll against it (trying the platform on one machine).")
    boolean devHub;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ServeMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (databasePoolSize != null && (databasePoolSize < 1 || databasePoolSize > 1000)) {
            spec.commandLine().getErr().println("stockade serve: --database-pool-size must be 1 to 1000, not "
                    + databasePoolSize);
            return 2;
        }
        Path dir = dataDir.toAbsolutePath().normalize();
        Files.createDirectories(dir);
        Map<String, Object> props = new HashMap<>();
        EmbeddedDatabase embedded = null;
        if (databaseUrl == null) {
            System.err.println("stockade: starting the embedded PostgreSQL in " + dir.resolve("pg"));
            embedded = EmbeddedDatabase.start(dir.resolve("pg"));
            props.put("datasources.default.url", embedded.jdbcUrl("postgres"));
            props.put("datasources.default.username", embedded.user());
        } else {
            props.put("datasources.default.url", databaseUrl);
            props.put("datasources.default.username", databaseUser);
            if (databasePasswordFile != null) {
                props.put("datasources.default.password", Files.readString(databasePasswordFile).trim());
            }
        }
        if (databasePoolSize != null) {
            props.put("datasources.default.maximum-pool-size", databasePoolSize);
        }
        // every pooled connection, the migrations' included, starts with the bound (a role's or URL's is overridden)
        props.put("datasources.default.connection-init-sql", statementTimeout.initSql());
        if (!configFiles.isEmpty()) {
            System.setProperty("micronaut.config.files",
                    String.join(",", configFiles.stream().map(f -> f.toAbsolutePath().toString()).toList()));
        }
        props.put("micronaut.server.port", port);
        props.put("micronaut.server.host", bind);
        props.put("config.data-dir", dir.toString());
        props.put("config.default-public-url", "http://" + (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + port);
        if (publicUrl != null) {
            props.put("config.public-url", publicUrl);
        }
        if (devHub) {
            props.put("hub.dev", true);
        }
        return run(props, embedded);
    }

    private static int run(Map<String, Object> props, EmbeddedDatabase embedded) throws Exception {
        ApplicationContext context;
        try {
            // ApplicationContext rather than Micronaut.run: the latter adds a shutdown hook of its own, which
            // deadlocks with ours; ours stops the context first and the embedded database after it.
            context = ApplicationContext.builder().mainClass(ServeMain.class).properties(props).start();
            context.getBean(EmbeddedServer.class).start();
        } catch (RuntimeException e) {
            System.err.println("stockade serve: " + rootMessage(e));
            if (embedded != null) {
                embedded.close();
            }
            return 2;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            context.close();
            try {
                if (embedded != null) {
                    embedded.close();
                }
            } catch (Exception ignored) {
                // the process is exiting; PostgreSQL stops with it or on the next start
            }
        }, "stockade-shutdown"));
        System.err.println("stockade: platform listening on " + props.get("config.default-public-url"));
        Thread.currentThread().join();
        return 0;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            if (t instanceof io.micronaut.context.exceptions.ConfigurationException) {
                break;
            }
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}

package dev.stockade.api.enrollment;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.config.HubConfig;
import dev.stockade.api.kernel.config.OidcConfig;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.config.PlatformVersion;
import dev.stockade.api.kernel.secrets.DataFiles;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.runtime.event.annotation.EventListener;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enrollment with the hub: at start, from the hub values (which take precedence) or the dev hub, then a heartbeat
 * every {@code hub.heartbeatInterval} carrying the platform version. A hub outage only sets a warning and the
 * connection to {@code unavailable}; the enrollment is kept in the database, so work goes on across restarts. A
 * revocation answered by the hub (401 or 403 on the heartbeat) stops agent work.
 */
@Singleton
public class Enrollment {
    private static final Logger LOG = LoggerFactory.getLogger(Enrollment.class);

    /** How this replica last reached the hub. */
    public enum Connection { CONNECTING, CONNECTED, UNAVAILABLE }

    private final HubConfig hub;
    private final PlatformConfig platform;
    private final OidcConfig oidc;
    private final InstallationStore store;
    private final EnrollmentGate gate;
    private final ObjectMapper json;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hub-heartbeat");
        t.setDaemon(true);
        return t;
    });
    private volatile DevHub devHub;
    private volatile Connection connection = Connection.CONNECTING;
    private volatile String lastError;

    public Enrollment(HubConfig hub, PlatformConfig platform, OidcConfig oidc, InstallationStore store,
                      EnrollmentGate gate, ObjectMapper json) {
        this.json = json;
        this.hub = hub;
        this.platform = platform;
        this.oidc = oidc;
        this.store = store;
        this.gate = gate;
    }

    @EventListener
    void onStartup(StartupEvent event) {
        try {
            if (hub.dev()) {
                devHub = new DevHub(DataFiles.dir(platform, ".").resolve("dev-hub.json"), 0);
            }
        } catch (IOException e) {
            throw new IllegalStateException("the dev hub could not start: " + e.getMessage(), e);
        }
        long every = hub.heartbeatInterval().toMillis();
        timer.execute(this::enrollQuietly);
        timer.scheduleWithFixedDelay(this::heartbeat, every, every, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
        if (devHub != null) {
            devHub.close();
        }
    }

    public Connection connection() {
        return connection;
    }

    public Optional<DevHub> devHub() {
        return Optional.ofNullable(devHub);
    }

    /** Warnings for operators ({@code GET /v1/installation}): the last hub failure, with its cause. */
    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        String e = lastError != null ? lastError : gate.current().heartbeatError();
        if (e != null) {
            out.add(e);
        }
        if (devHub != null) {
            out.add("enrolled against the local dev hub (--dev-hub), not a real enrollment hub");
        }
        return out;
    }

    public Optional<URI> hubUrl() {
        if (devHub != null) {
            return Optional.of(devHub.url());
        }
        return Optional.ofNullable(hub.url()).filter(u -> !u.isBlank()).map(URI::create);
    }

    /** The sign-in mode this installation enrolls with. */
    public String authMode() {
        return oidc.useExternalProvider() ? "customer-sso" : "hosted-id";
    }

    public String publicUrl() {
        return platform.effectivePublicUrl();
    }

    private void enrollQuietly() {
        try {
            enrollNow();
        } catch (Refused e) {
            // logged where it was found; retrying cannot help until an operator changes the values or the fleet
        } catch (HubClient.HubException | RuntimeException e) {
            failed(e.getMessage());
            timer.schedule(this::enrollQuietly, 10, TimeUnit.SECONDS);
        }
    }

    /**
     * At start: completes enrollment from the hub values or the dev hub if the installation is not enrolled yet; an
     * installation already enrolled (by values or the setup screen) checks in with a heartbeat instead, so the
     * connection it shows is what the hub answers now, not what it answered before the restart.
     */
    void enrollNow() throws HubClient.HubException {
        InstallationStore.Row row = store.load();
        Optional<URI> url = hubUrl();
        if (hub.hasValues() && url.isPresent()) {
            String token = readSecret(hub.accessTokenSecret().name(), hub.accessTokenSecret().key());
            if (!hub.fleetId().equals(row.fleetId()) || !token.equals(row.hubToken())
                    || !url.get().toString().equals(row.hubUrl())) {
                store.saveFleet(hub.fleetId(), url.get().toString(), token, false);
            }
        } else if (devHub != null && url.isPresent()) {
            if (row.fleetId() == null || !row.devHub()) {
                HubClient.Fleet f = client(url.get()).registerFleet(devHub.operatorToken(), "local", "stockade-dev",
                        publicUrl());
                store.saveFleet(f.fleetId(), url.get().toString(), f.accessToken(), true);
            } else {
                store.saveFleet(row.fleetId(), url.get().toString(), row.hubToken(), true);
            }
        }
        row = store.load();
        if (row.revokedAt() != null) {
            connection = Connection.UNAVAILABLE; // revoked stays revoked until values or the setup name another fleet
            return;
        }
        if (row.fleetId() == null || row.hubUrl() == null) {
            return; // stays connecting: nothing to reach until the setup screen or the values name a fleet
        }
        if (row.enrolled()) {
            heartbeat();
        } else {
            complete(client(URI.create(row.hubUrl())));
        }
    }

    /**
     * Requests enrollment for the stored fleet and checks the hub's answer (fleet ID, owner, public URL, sign-in
     * mode) against this installation's own; a difference refuses enrollment ({@link Refused}) and is logged.
     */
    public void complete(HubClient client) throws HubClient.HubException {
        InstallationStore.Row row = store.load();
        if (row.fleetId() == null || row.enrolled()) {
            return;
        }
        HubClient.Enrollment e = client.enroll(row.fleetId(), row.hubToken(), authMode());
        List<String> mismatches = new ArrayList<>();
        if (!row.fleetId().equals(e.fleetId())) {
            mismatches.add("fleet ID (hub has `" + e.fleetId() + "`, this installation `" + row.fleetId() + "`)");
        }
        if (!publicUrl().equals(e.publicUrl().replaceAll("/+$", ""))) {
            mismatches.add("public URL (hub has `" + e.publicUrl() + "`, config.publicUrl is `" + publicUrl() + "`)");
        }
        if (!authMode().equals(e.authMode())) {
            mismatches.add("sign-in mode (hub has `" + e.authMode() + "`, this installation `" + authMode() + "`)");
        }
        if (e.owner().isBlank()) {
            mismatches.add("owner (the hub named none)");
        }
        if (!mismatches.isEmpty()) {
            Refused refused = new Refused("enrollment refused: the hub's answer differs in " + String.join(", ", mismatches));
            refused(refused);
            throw refused;
        }
        store.markEnrolled(e.owner(), e.authMode());
        gate.refresh();
        connection = Connection.CONNECTED;
        lastError = null;
        LOG.info("enrolled with the hub as fleet {} (owner {})", e.fleetId(), e.owner());
    }

    /** Enrollment refused because the hub's answer differs from this installation's values; an operator must act. */
    public static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    private void refused(Refused e) {
        connection = Connection.UNAVAILABLE;
        lastError = e.getMessage();
        LOG.error("{}; not enrolled (fix the values or the fleet at the hub, then restart or run the setup again)",
                e.getMessage());
    }

    /** A client of the hub at {@code url}. */
    HubClient client(URI url) {
        return new HubClient(url, json);
    }

    void heartbeat() {
        InstallationStore.Row row = store.load();
        if (row.fleetId() == null || !row.enrolled() || row.hubUrl() == null) {
            return;
        }
        try {
            client(URI.create(row.hubUrl())).heartbeat(row.fleetId(), row.hubToken(), PlatformVersion.VALUE);
            store.heartbeat(Optional.empty());
            connection = Connection.CONNECTED;
            lastError = null;
        } catch (HubClient.HubException e) {
            if (e.status() == 401 || e.status() == 403) {
                store.markRevoked();
                gate.refresh();
                LOG.error("the hub revoked this installation ({}); agent work stops", e.getMessage());
            }
            store.heartbeat(Optional.of(e.getMessage()));
            failed(e.getMessage());
        } catch (RuntimeException e) {
            failed("hub heartbeat failed: " + e.getClass().getSimpleName());
        }
    }

    private void failed(String message) {
        connection = Connection.UNAVAILABLE;
        lastError = message;
        LOG.warn("enrollment hub: {}", message);
    }

    private String readSecret(String name, String key) {
        return DataFiles.secret(platform, name, key);
    }
}

package dev.stockade.api.sandbox;

import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.events.EventStream;
import dev.stockade.api.kernel.events.Topic;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandbox feature's entry point for routes (REST, MCP) and other features: each operation commits its change
 * ({@link SandboxWrites}) and then hands the runtime work to {@link SandboxWorker}. At start it provisions again
 * the sandboxes that should run, and it re-enforces sandboxes when a policy or credential they use changes
 * ({@code governance} events, on every replica).
 */
@Singleton
public class SandboxService {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxService.class);
    /** How often a caller waiting for a start re-reads the state when the start runs on another replica. */
    private static final Duration START_POLL = Duration.ofMillis(10);
    /**
     * Activity is recorded at most once per this span per sandbox: the idle timers count in minutes, and every exec
     * and private-port request would otherwise commit a write.
     */
    private static final Duration ACTIVITY_GRAIN = Duration.ofSeconds(1);

    private final SandboxWrites writes;
    private final SandboxStore store;
    private final SandboxWorker worker;
    private final SandboxPolicies policies;
    private final TransactionOperations<Connection> tx;
    private final Clock clock;
    private final SandboxBody.Ceiling ceiling;
    private final EventStream events;
    private final ExecutorService reenforce = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "sandbox-reenforce");
        t.setDaemon(true);
        return t;
    });

    public SandboxService(SandboxWrites writes, SandboxStore store, SandboxWorker worker, SandboxPolicies policies,
                          TransactionOperations<Connection> tx, Clock clock, EventStream events,
                          @Value("${sandbox.k8s.cpu:4}") String maxCpu,
                          @Value("${sandbox.k8s.memory:8Gi}") String maxMemory) {
        this.writes = writes;
        this.store = store;
        this.worker = worker;
        this.policies = policies;
        this.tx = tx;
        this.clock = clock;
        long cpu = Quantities.cpuMillis(maxCpu);
        long memory = Quantities.memoryBytes(maxMemory);
        if (cpu <= 0 || memory <= 0) {
            throw new IllegalArgumentException("sandbox.k8s.cpu and sandbox.k8s.memory must be quantities like 4 and 8Gi");
        }
        this.ceiling = new SandboxBody.Ceiling(cpu, memory, maxCpu, maxMemory);
        this.events = events;
    }

    /** At start: follow governance changes, and provision again what should run. */
    @EventListener
    void onStartup(StartupEvent event) {
        events.subscribe(Topic.GOVERNANCE, e -> reenforce.submit(() -> reenforce(e.id(), e.orgId(),
                e.payload().path("kind").asText(), e.payload().path("projectId").asText(null),
                e.payload().path("policyId").asText(null))));
        resume();
    }

    public Sandbox create(Identity caller, Grant grant, String body) {
        Sandbox s = writes.create(caller, grant, SandboxBody.create(body, ceiling));
        worker.provision(s.id());
        return s;
    }

    public Sandbox get(Grant grant, UUID id) {
        return store.get(grant.projectId(), id);
    }

    public List<Sandbox> list(Grant grant) {
        return store.list(grant.projectId());
    }

    public Sandbox update(Identity caller, Grant grant, UUID id, String body) {
        return writes.update(caller, grant, id, body, ceiling);
    }

    public Sandbox start(Identity caller, Grant grant, UUID id) {
        Sandbox s = writes.transition(caller, grant, id, SandboxState.Transition.START, "start");
        worker.provision(id);
        return s;
    }

    /** Stop is accepted while creating or starting too; provisioning in flight ends stopped. */
    public Sandbox stop(Identity caller, Grant grant, UUID id) {
        Sandbox s = writes.transition(caller, grant, id, SandboxState.Transition.STOP, "stop");
        worker.stop(id);
        return s;
    }

    /** Re-provisions the active revision of a running sandbox, or starts a stopped (or failed) one. */
    public Sandbox restart(Identity caller, Grant grant, UUID id) {
        Sandbox s = writes.transition(caller, grant, id, SandboxState.Transition.RESTART, "restart");
        worker.provision(id);
        return s;
    }

    public Sandbox promote(Identity caller, Grant grant, UUID id, int revision) {
        Sandbox s = writes.promote(caller, grant, id, revision);
        if (SandboxState.LIVE.contains(s.state())) {
            worker.provision(id);
        }
        return s;
    }

    /** Promotes the revision that was active before the current one. */
    public Sandbox rollback(Identity caller, Grant grant, UUID id) {
        Sandbox s = store.get(grant.projectId(), id);
        if (s.previousRevision() == null) {
            throw new ApiProblem(ProblemCode.CONFLICT, "sandbox `" + s.name() + "` has no earlier active revision");
        }
        return promote(caller, grant, id, s.previousRevision());
    }

    public void delete(Identity caller, Grant grant, UUID id) {
        Sandbox s = writes.delete(caller, grant, id);
        worker.delete(s.id());
    }

    public List<SandboxStore.Revision> revisions(Grant grant, UUID id) {
        store.get(grant.projectId(), id);
        return store.revisions(id);
    }

    /**
     * Activity on a sandbox (exec, terminal, private port): resets its idle timer and, for a sandbox the auto-stop
     * timer stopped and that has {@code autoStart}, starts it again. A sandbox that is being created or started
     * (by this call or before it) is waited for, at most {@code wait}: the caller gets it running, or in the state
     * its start ended in (error, stopped), or still starting when the wait ran out. Activity within the last second
     * is not written again.
     */
    public Sandbox ensureRunning(UUID id, Duration wait) throws InterruptedException {
        Sandbox s = store.find(id).orElseThrow(() -> ApiProblem.notFound("sandbox `" + id + "`"));
        if (s.state() == SandboxState.STOPPED && s.autoStart() && "auto-stop".equals(s.stoppedBy())) {
            tx.executeWrite(st -> store.transition(id, SandboxState.Transition.AUTO_START, "", null,
                    clock.instant()));
            worker.provision(id);
        }
        s = awaitStarted(id, wait);
        Instant now = clock.instant();
        if (s.lastActivityAt() != null && !s.lastActivityAt().isBefore(now.minus(ACTIVITY_GRAIN))) {
            return s; // activity this recent is already recorded: no write per request
        }
        tx.executeWrite(st -> {
            store.touch(id, now);
            return null;
        });
        return store.find(id).orElseThrow(() -> ApiProblem.notFound("sandbox `" + id + "`"));
    }

    /**
     * Waits while the sandbox is creating or starting: on this replica's provisioning when it runs here (woken as
     * it ends), else re-reading the state every {@link #START_POLL} (another replica provisions it).
     */
    private Sandbox awaitStarted(UUID id, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Sandbox s = store.find(id).orElseThrow(() -> ApiProblem.notFound("sandbox `" + id + "`"));
        while (SandboxState.STARTING_UP.contains(s.state()) && System.nanoTime() < deadline) {
            CompletableFuture<Void> here = worker.pending(id);
            try {
                if (here.isDone()) {
                    Thread.sleep(START_POLL.toMillis()); // bounded poll: the start runs on another replica
                } else {
                    here.get(START_POLL.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (TimeoutException | ExecutionException stillStartingOrFailed) {
                // read the state again: a failed start wrote its error
            }
            s = store.find(id).orElseThrow(() -> ApiProblem.notFound("sandbox `" + id + "`"));
        }
        return s;
    }

    /** The sandbox a sandbox token was minted for, if the token belongs to a sandbox. */
    public java.util.Optional<Sandbox> byToken(UUID tokenId) {
        return store.findByToken(tokenId);
    }

    /** The sandbox whose exposed-port host label is {@code slug} (the ingress). */
    public java.util.Optional<Sandbox> bySlug(String slug) {
        return store.findBySlug(slug);
    }

    public SandboxBody.Ceiling ceiling() {
        return ceiling;
    }

    /**
     * Re-publishes the sandboxes a governance change reaches. Every replica hears the event; the one that claims its
     * id (in the same transaction) does the work, so it is done once across replicas. A policy's write publishes the
     * shared lists it changes alone (the sets name them); other changes re-publish every set they reach. Returns
     * whether this call did the work.
     */
    boolean reenforce(long eventId, UUID orgId, String kind, String projectId, String policyId) {
        try {
            UUID project = projectId == null ? null : UUID.fromString(projectId);
            if (kind.equals("binding")) {
                return false; // bindings reach people and tokens, not sandboxes
            }
            long[] at = new long[4]; // start, listed, re-published, committed
            long[] writing = new long[1];
            at[0] = System.nanoTime();
            List<String> lists = new java.util.ArrayList<>();
            boolean[] byList = new boolean[1];
            int reached = tx.executeWrite(st -> {
                if (!store.claimGovernanceEvent(eventId)) {
                    return -1; // another replica re-enforced it
                }
                if (kind.equals("policy") && policyId != null) {
                    List<String> changed = policies.republishShared(orgId, project, UUID.fromString(policyId));
                    if (changed != null) {
                        lists.addAll(changed);
                        byList[0] = true;
                        return 0; // the sets name the lists: none is written
                    }
                }
                // by hashes: each sandbox's own document is named by the hash its set remembers, not read again
                List<SandboxStore.Listed> listed = store.listedOfOrg(orgId, project);
                at[1] = System.nanoTime();
                writing[0] = policies.republish(listed, whole -> store.ofOrg(orgId, project).stream()
                        .filter(s -> whole.contains(s.id())).toList());
                at[2] = System.nanoTime();
                return listed.size();
            });
            at[3] = System.nanoTime();
            if (byList[0]) {
                LOG.info("governance event {} ({}) re-enforced shared list(s) {} of org {} in {} ms", eventId, kind,
                        lists, orgId, ms(at[3] - at[0]));
            } else if (reached >= 0) {
                LOG.info("governance event {} ({}) re-enforced {} sandbox(es) of org {} in {} ms (listed {}, sets"
                        + " built {}, written {}, committed {})", eventId, kind, reached, orgId, ms(at[3] - at[0]),
                        ms(at[1] - at[0]), ms(at[2] - at[1] - writing[0]), ms(writing[0]), ms(at[3] - at[2]));
            }
            return reached >= 0;
        } catch (RuntimeException e) {
            LOG.error("re-enforcing the sandboxes of org {} failed", orgId, e);
            return false;
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    private void resume() {
        try {
            worker.recover();
            for (Sandbox s : store.meantToRun()) {
                if (!worker.provisioner().status(s.id().toString()).running()) {
                    worker.provision(s.id());
                }
            }
        } catch (RuntimeException e) {
            LOG.error("resuming sandboxes failed", e);
        }
    }
}

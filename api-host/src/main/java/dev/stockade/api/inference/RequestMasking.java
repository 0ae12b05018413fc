package dev.stockade.api.inference;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.inference.ForwardBody;
import dev.stockade.pii.FailureAction;
import dev.stockade.pii.InProcessWorker;
import dev.stockade.pii.MaskedBody;
import dev.stockade.pii.MaskingException;
import dev.stockade.pii.MaskingSettings;
import dev.stockade.pii.MaskingWorker;
import dev.stockade.pii.PiiMasker;
import dev.stockade.pii.Restorer;
import dev.stockade.pii.WireFormat;
import dev.stockade.pii.WorkerHealth;
import dev.stockade.policy.model.MaskingType;
import dev.stockade.policy.model.PiiMasking;
import io.micronaut.core.annotation.Nullable;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy's masking stage: a request body leaves with the personal data the caller's policy names replaced by
 * placeholders, or does not leave. One worker per distinct masking block, kept across calls (each holds a masking
 * engine and a thread pool) and closed at shutdown; a worker found dead answers 503 for that call and is replaced
 * for the next. What happened goes to the call's audit entry ({@link MaskingReport}).
 */
@Singleton
class RequestMasking implements AutoCloseable {
    /** What goes upstream, and how to restore the answer ({@code null}: the answer passes as it is). */
    record Outcome(ForwardBody body, @Nullable Restorer restorer) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(RequestMasking.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MaskingConfig config;
    private final Map<MaskingSettings, MaskingWorker> workers = new ConcurrentHashMap<>();
    private volatile boolean closed;

    RequestMasking(MaskingConfig config) {
        this.config = config;
    }

    /** Whether the call's body is a multipart upload, which masking skips (spec "piiMasking object"). */
    static boolean multipart(Map<String, List<String>> headers) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("content-type"))
                .flatMap(e -> e.getValue().stream())
                .anyMatch(v -> v.toLowerCase(Locale.ROOT).strip().startsWith("multipart/"));
    }

    /**
     * {@code body} masked per {@code policy}, or the original when masking failed and the policy fails open.
     *
     * @throws ApiProblem 503 {@code PII_MASKING_UNAVAILABLE}, already reported to {@code ctx}, when the request
     *                    must not be sent
     */
    Outcome mask(PiiMasking policy, dev.stockade.inference.WireFormat format, ForwardBody body,
                 CallRecords.Context ctx) {
        MaskingSettings settings = settings(policy);
        MaskingWorker worker;
        try {
            worker = workerFor(settings);
        } catch (ApiProblem unavailable) {
            ctx.masking(MaskingReport.refused(MaskingException.Kind.WORKER_DEAD)); // a worker that never lived
            throw unavailable;
        }
        try {
            if (format == dev.stockade.inference.WireFormat.BEDROCK_INVOKE && !anthropicBody(body.bytes())) {
                // the engine knows the Anthropic body only: another model family's text would leave unscanned
                throw new MaskingException(MaskingException.Kind.INVALID_BODY, "not an Anthropic Messages body");
            }
            MaskedBody masked = worker.mask(body.bytes(), format(format), config.timeout());
            ctx.masking(MaskingReport.masked(masked.masked(), masked.truncations()));
            return new Outcome(new ForwardBody(masked.body(), body.clientAskedForUsage(), true),
                    settings.unmaskResponses() ? masked.restorer() : null);
        } catch (MaskingException failed) {
            return failed(settings, worker, failed, body, ctx);
        }
    }

    private Outcome failed(MaskingSettings settings, MaskingWorker worker, MaskingException failed, ForwardBody body,
                           CallRecords.Context ctx) {
        boolean dead = failed.kind() == MaskingException.Kind.WORKER_DEAD || worker.health() == WorkerHealth.DEAD;
        if (dead) {
            retire(settings, worker);
        }
        // a worker that died on this request counts as dead, whatever the request's own failure was
        MaskingException.Kind kind = dead ? MaskingException.Kind.WORKER_DEAD : failed.kind();
        MaskingException judged = dead ? new MaskingException(kind, "masking worker is dead") : failed;
        if (settings.onFailure(judged) == FailureAction.SEND_UNMASKED) {
            ctx.masking(MaskingReport.skipped(MaskingReport.SkipReason.FAIL_OPEN, kind));
            return new Outcome(body, null);
        }
        ctx.masking(MaskingReport.refused(kind));
        throw new ApiProblem(ProblemCode.PII_MASKING_UNAVAILABLE, refusal(kind));
    }

    /** Whether a Bedrock InvokeModel body is an Anthropic Messages body (a {@code messages} array). */
    private static boolean anthropicBody(byte[] body) {
        try {
            return JSON.readTree(body).path("messages").isArray();
        } catch (IOException unreadable) {
            return false;
        }
    }

    /** The worker for {@code settings}, started on first use (package-visible so tests can kill it). */
    MaskingWorker workerFor(MaskingSettings settings) {
        if (closed) {
            throw new ApiProblem(ProblemCode.PII_MASKING_UNAVAILABLE, "the platform is shutting down: PII masking "
                    + "is stopped and the request was not sent");
        }
        try {
            return workers.computeIfAbsent(settings, s -> InProcessWorker.of(PiiMasker.create(s)));
        } catch (RuntimeException cannotStart) {
            LOG.error("the PII masking engine could not start ({})", cannotStart.getClass().getSimpleName());
            throw new ApiProblem(ProblemCode.PII_MASKING_UNAVAILABLE, "the masking engine could not start: the "
                    + "policy requires PII masking, so the request was not sent");
        }
    }

    /** The engine's settings for a resolved block (the core has merged it: types present, booleans explicit). */
    static MaskingSettings settings(PiiMasking policy) {
        List<String> types = policy.types() == null ? null : policy.types().stream().map(MaskingType::wire).toList();
        return MaskingSettings.fromPolicy(types, policy.unmaskResponses(), policy.failOpen());
    }

    static WireFormat format(dev.stockade.inference.WireFormat format) {
        return switch (format) {
            case ANTHROPIC_MESSAGES -> WireFormat.ANTHROPIC_MESSAGES;
            case OPENAI_CHAT -> WireFormat.OPENAI_CHAT;
            case OPENAI_RESPONSES -> WireFormat.OPENAI_RESPONSES;
            case OPENAI_EMBEDDINGS -> WireFormat.OPENAI_EMBEDDINGS;
            case BEDROCK_INVOKE -> WireFormat.BEDROCK_INVOKE_ANTHROPIC;
            case BEDROCK_CONVERSE -> WireFormat.BEDROCK_CONVERSE;
            // INVARIANT: realtime sessions are never masked (spec) and have no request body to mask
            case OPENAI_REALTIME -> throw new IllegalArgumentException("realtime voice is not masked");
        };
    }

    private void retire(MaskingSettings settings, MaskingWorker dead) {
        if (workers.remove(settings, dead)) {
            dead.close();
        }
    }

    private static String refusal(MaskingException.Kind kind) {
        String why = switch (kind) {
            case WORKER_DEAD -> "the masking worker is dead";
            case TIMEOUT -> "masking took longer than the platform allows";
            case OVERLOADED -> "the masking queue is full";
            case INVALID_BODY -> "the request body could not be read for masking";
            case INTERNAL -> "masking failed";
        };
        return why + ": the policy requires PII masking, so the request was not sent";
    }

    @PreDestroy
    @Override
    public void close() {
        closed = true;
        workers.values().forEach(MaskingWorker::close);
        workers.clear();
    }
}

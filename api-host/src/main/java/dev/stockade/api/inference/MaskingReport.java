package dev.stockade.api.inference;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.stockade.pii.MaskingException;
import dev.stockade.pii.PiiType;
import dev.stockade.pii.Truncation;
import io.micronaut.core.annotation.Nullable;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The PII masking status of one model call as its audit entry carries it ({@code details.piiMasking}): how many
 * values of each type were masked and which fields the scan budget cut, never the values or the cut text. A call
 * that went out unmasked says why, so the trail shows every request that left with personal data in it.
 *
 * @param status      what happened to the request body
 * @param masked      values masked per type (empty unless {@code MASKED})
 * @param truncations fields cut by the scan budget, per call (spec "Limits")
 * @param skipped     why the body went out unmasked ({@code SKIPPED} only)
 * @param failure     why masking failed ({@code REFUSED}, or {@code SKIPPED} because of {@code failOpen})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record MaskingReport(Status status, Map<PiiType, Integer> masked, List<Truncation> truncations,
                     @Nullable SkipReason skipped, @Nullable Failure failure) {

    /** What happened to the request body. */
    enum Status {
        /** Masked and sent. */
        MASKED,
        /** Sent as the caller wrote it, recorded as {@code piiMaskingSkipped}. */
        SKIPPED,
        /** Not sent: masking failed and the policy fails closed, or the worker was dead. */
        REFUSED;

        @JsonValue
        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Why a body went out unmasked. */
    enum SkipReason {
        /** Spec "piiMasking object": multipart uploads are not masked. */
        MULTIPART,
        /** Masking failed and every policy that sets {@code piiMasking} says {@code failOpen: true}. */
        FAIL_OPEN;

        @JsonValue
        String wire() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** Why masking failed, by the engine's own kinds; never its message. */
    enum Failure {
        INVALID_BODY, TIMEOUT, OVERLOADED, WORKER_DEAD, INTERNAL;

        static Failure of(MaskingException.Kind kind) {
            return valueOf(kind.name());
        }

        @JsonValue
        String wire() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    MaskingReport {
        masked = masked.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(masked));
        truncations = List.copyOf(truncations);
    }

    static MaskingReport masked(Map<PiiType, Integer> counts, List<Truncation> truncations) {
        return new MaskingReport(Status.MASKED, counts, truncations, null, null);
    }

    static MaskingReport skipped(SkipReason reason, @Nullable MaskingException.Kind kind) {
        return new MaskingReport(Status.SKIPPED, Map.of(), List.of(), reason, kind == null ? null : Failure.of(kind));
    }

    static MaskingReport refused(MaskingException.Kind kind) {
        return new MaskingReport(Status.REFUSED, Map.of(), List.of(), null, Failure.of(kind));
    }

    /** Whether the request left (or would have left) unmasked: the spec's {@code piiMaskingSkipped} flag. */
    boolean leftUnmasked() {
        return status == Status.SKIPPED;
    }
}

package dev.stockade.pii;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The policy's {@code piiMasking} block as the engine needs it, plus the scan budget the platform sets.
 *
 * @param types           what to find and mask; never empty
 * @param unmaskResponses whether placeholders in answers are turned back into the values they stand for
 * @param failOpen        whether a request whose masking failed is sent unmasked (a dead worker still refuses)
 * @param budget          the work one request may cost
 */
public record MaskingSettings(Set<PiiType> types, boolean unmaskResponses, boolean failOpen, ScanBudget budget) {

    public MaskingSettings {
        if (types == null || types.isEmpty()) {
            throw new IllegalArgumentException("piiMasking needs at least one type");
        }
        types = Set.copyOf(EnumSet.copyOf(types));
        if (budget == null) {
            throw new IllegalArgumentException("budget is required");
        }
    }

    /**
     * Settings from a policy block as written: an absent {@code types} list means every type (masking more is
     * the reading that denies), absent booleans mean false (the spec's default for failOpen).
     */
    public static MaskingSettings fromPolicy(List<String> types, Boolean unmaskResponses, Boolean failOpen) {
        Set<PiiType> selected = EnumSet.noneOf(PiiType.class);
        if (types == null) {
            selected.addAll(EnumSet.allOf(PiiType.class));
        } else {
            types.forEach(t -> selected.add(PiiType.fromPolicy(t)));
        }
        return new MaskingSettings(selected, Boolean.TRUE.equals(unmaskResponses), Boolean.TRUE.equals(failOpen),
                ScanBudget.DEFAULT);
    }

    /** Settings for {@code types}, with no unmasking, failing closed, and the default budget. */
    public static MaskingSettings of(Collection<PiiType> types) {
        return new MaskingSettings(EnumSet.copyOf(types), false, false, ScanBudget.DEFAULT);
    }

    /** These settings with another budget. */
    public MaskingSettings withBudget(ScanBudget value) {
        return new MaskingSettings(types, unmaskResponses, failOpen, value);
    }

    /** These settings with {@code unmaskResponses} set as given. */
    public MaskingSettings withUnmaskResponses(boolean value) {
        return new MaskingSettings(types, value, failOpen, budget);
    }

    /**
     * What a proxy does with a request whose masking failed: a dead worker always answers 503; any other
     * failure sends the request unmasked only when {@code failOpen} is set, and answers 503 otherwise.
     */
    public FailureAction onFailure(MaskingException failure) {
        if (failure.kind() == MaskingException.Kind.WORKER_DEAD || !failOpen) {
            return FailureAction.REFUSE_503;
        }
        return FailureAction.SEND_UNMASKED;
    }
}

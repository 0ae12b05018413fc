package dev.stockade.policy.compiler.internal;

import dev.stockade.policy.model.MaskingType;
import dev.stockade.policy.model.PiiMasking;
import dev.stockade.policy.model.Policy;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Stage "PII masking": one {@code piiMasking} block from every block of the ceiling and the grants. The spec is
 * silent on the merge; each rule takes the side that masks more and sends less (docs/semantics.md, "PII masking
 * in the proxy"), so a ceiling can require masking that no project policy can remove or weaken.
 */
public final class MaskingMerge {
    private MaskingMerge() {
    }

    /**
     * The merged block, or {@code null} when no policy of either layer sets {@code piiMasking}.
     * <ul>
     *   <li>{@code types}: the union; a block without {@code types} asks for every type;</li>
     *   <li>{@code unmaskResponses}: true only when every block says true;</li>
     *   <li>{@code failOpen}: true only when every block says true.</li>
     * </ul>
     */
    public static PiiMasking merge(List<Policy> ceiling, List<Policy> grants) {
        List<PiiMasking> blocks = new ArrayList<>();
        ceiling.forEach(p -> add(blocks, p));
        grants.forEach(p -> add(blocks, p));
        if (blocks.isEmpty()) {
            return null;
        }
        Set<MaskingType> types = EnumSet.noneOf(MaskingType.class);
        boolean unmask = true;
        boolean failOpen = true;
        for (PiiMasking b : blocks) {
            types.addAll(b.types() == null ? EnumSet.allOf(MaskingType.class) : b.types());
            unmask &= Boolean.TRUE.equals(b.unmaskResponses());
            failOpen &= Boolean.TRUE.equals(b.failOpen());
        }
        if (types.isEmpty()) {
            // only explicit empty lists (validation refuses them): masking everything is the reading that denies
            types = EnumSet.allOf(MaskingType.class);
        }
        return new PiiMasking(List.copyOf(types), unmask, failOpen);
    }

    private static void add(List<PiiMasking> blocks, Policy p) {
        if (p.piiMasking() != null) {
            blocks.add(p.piiMasking());
        }
    }
}

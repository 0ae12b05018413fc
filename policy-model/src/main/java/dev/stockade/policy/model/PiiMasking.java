package dev.stockade.policy.model;

import java.util.List;

/** The {@code piiMasking} object. {@code failOpen} defaults to false: if masking fails, nothing is sent. */
public record PiiMasking(List<MaskingType> types, Boolean unmaskResponses, Boolean failOpen) {

    /** Copies the types (absent stays {@code null}: the document said nothing), so the value stays immutable. */
    public PiiMasking {
        types = Lists.copyOrNull(types);
    }
}
